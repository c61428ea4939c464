"""xDSL dialects of AscendIR."""
