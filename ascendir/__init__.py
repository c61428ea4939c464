"""AscendIR ascendir package."""
