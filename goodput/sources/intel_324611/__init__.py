"""Intel 324611, the PCI Express performance measurement tutorial: its worked examples, analyzer traces and measured figures checked against the models."""
