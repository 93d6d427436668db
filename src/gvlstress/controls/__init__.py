"""Controls that prove the harness on this host before anyone trusts it: `selftest` (positive and
negative controls on the built-in loader) and `doctor` (can the tools attach here)."""
