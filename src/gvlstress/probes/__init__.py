"""Probes: read a live process without changing it (/proc now; py-spy and native stacks next)."""
