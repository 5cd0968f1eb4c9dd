"""What the book works out from several models and measurements: the chooser, boot and code size, the fits of
the AM243x sweeps, the analyzer traces, the host benchmarks."""
