"""The Ascend-CoT-style dataset: four sources, every record verified, deduplicated, split by task, with a card.

    from llm.data.build import BuildOptions, build
    report = build(BuildOptions("dataset/", tasks=("relu", "abs")))

Sources: `docs` (llm/data/docs.py: the API catalog, the rule pages, the chip files), `code` (code.py: the
bundled reference solutions with reasoning derived from their IR, reasoning.py), `mutants` (mutants.py: bugs
seeded by passes/mutate and kept only when a checker flags them) and `repairs` (repairs.py: the real failures
of ../shared/data/kernelhive-failures). split.py deduplicates and splits; card.py writes the card; verify.py
re-checks a written record. Nothing here imports the training stack.
"""
