"""The panels beside the step pages and the status bar's verdict: they show the engine's report
(budgets, summary, record, findings) and compute nothing."""
