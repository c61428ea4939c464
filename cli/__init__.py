"""AscendIR cli package."""
