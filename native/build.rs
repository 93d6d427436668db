//! Builds the opt-in delay layer (`preload/gvldelay.c`, a C shared library preloaded only into
//! workers run with `--delays`) into the Python package, so the one `pip install ./native`
//! ships it beside the loader. C because it interposes libc's variadic `syscall()`. A host
//! without a C compiler cannot link this crate either; should the compile still fail, the
//! loader builds without it and `--delays` says it is missing.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=preload/gvldelay.c");
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = root.join("python/gvlstress_native/libgvldelay.so");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O2", "-Wall", "-o"])
        .arg(&out)
        .arg(root.join("preload/gvldelay.c"))
        .args(["-ldl", "-lpthread"])
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => println!("cargo:warning=the delay layer was not built ({cc}: {other:?}); --delays will be unavailable"),
    }
}
