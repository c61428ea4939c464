"""AscendIR bench package."""
