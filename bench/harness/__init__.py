"""The benchmark harness: stages per answer (extract, compile, correctness, performance), metrics, executors
(a process pool, Ray), results as JSONL that a run resumes from.

    from bench.harness import evaluate, EvalOptions
    verdicts = evaluate(task, answers)            # list[Verdict], one per answer, in order
"""

from bench.harness.answers import Answer, answer_key, collect_answers, reference_answers
from bench.harness.evaluate import EvalOptions, evaluate, evaluate_answer
from bench.harness.verdict import CaseResult, Finding, Verdict

__all__ = ["Answer", "CaseResult", "EvalOptions", "Finding", "Verdict", "answer_key", "collect_answers", "evaluate",
           "evaluate_answer", "reference_answers"]
