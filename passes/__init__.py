"""AscendIR passes package."""
