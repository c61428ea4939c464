"""AscendIR llm package."""
