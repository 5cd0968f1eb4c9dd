"""TI SPRAAQ5, the NDK benchmark report: its TCP throughput, console logs and code sizes checked against the models."""
