"""The stages one answer goes through: extract -> compile -> correctness -> performance."""
