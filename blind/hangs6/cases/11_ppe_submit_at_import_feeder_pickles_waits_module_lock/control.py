# Control: the fix: no pool work during import; the table is built after `import features_fixed` returned.
# CPython 3.11.7.
import features_fixed

print("ready", flush=True)
print("table", features_fixed.table(), flush=True)
