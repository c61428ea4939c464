"""AscendIR frontend package."""
