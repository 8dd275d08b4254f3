"""Layer 4: human-correlation and robustness reports from metric scores and suite outputs."""
