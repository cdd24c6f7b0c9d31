"""The audit as text for people and as JSON for scripts.

Server text in it (paths, header values, media types) is data: the caller
prints the text through the terminal filter, and the JSON is escaped.
"""

from __future__ import annotations

import orjson

from explorer.core.survey.audit import Audit
from explorer.core.survey.audit_figures import Constraint, Figure
from explorer.core.survey.map_summary import map_counts
from explorer.core.text.plural import counted, noun
from explorer.core.text.terminal_text import json_visible

__all__ = ["audit_json", "audit_text", "level_lines", "percent"]

#: Width of a figure's name in the text.
_NAME_WIDTH = 60


#: Fewer answers in an API format than this, and the audit says the entry may be a web page.
FEW_API_ANSWERS = 3


def _is_api_format(media_type: str | None) -> bool:
    return (media_type or "").endswith(("json", "xml"))


def percent(share: float | None) -> str:
    """``share`` as a whole percentage, or ``n/a``."""
    return "n/a" if share is None else f"{round(100 * share)}%"


def audit_text(audit: Audit) -> str:
    """The audit for a person: the grade, then each constraint with its figures and examples."""
    result = audit.crawl
    counts = map_counts(result.api_map, result.entry)
    lines = [
        f"REST audit of {audit.entry}: grade {audit.grade} ({percent(audit.score)}), "
        f"Richardson maturity level {audit.level}",
        f"{counts.resources_line()}, {counted(counts.pages, 'page')} mapped, "
        f"{counted(audit.probe_requests, 'probing request')}, "
        f"{counted(audit.requests, 'request')} in {audit.seconds:.1f} s",
    ]
    if result.stopped:
        lines.append(f"The map stopped at {result.stopped}: the figures are of what it reached.")
    api_answers = sum(1 for v in result.visits if _is_api_format(v.media_type))
    if api_answers < FEW_API_ANSWERS:
        met = (
            "No answer in JSON or XML was"
            if not api_answers
            else f"Only {counted(api_answers, 'answer')} in JSON or XML "
            f"{noun(api_answers, 'was', 'were')}"
        )
        lines.append(
            f"{met} met from this entry: if it is a web page, audit the API's own root "
            "(a collection's URL) for figures about the API."
        )
    if audit.probes.out_of_time:
        lines.append("The time limit came before every probe was sent.")
    lines.append("")
    lines.extend(level_lines(audit))
    for constraint in audit.constraints:
        lines.append("")
        lines.extend(constraint_lines(constraint))
    lines.append("")
    lines.append(f"Versioning: {audit.versioning.summary}")
    lines.extend(f"  {evidence}" for evidence in audit.versioning.evidence)
    if audit.description is not None:
        url, count = audit.description
        lines.append(f"Description: {url} lists {counted(count, 'GET path')}.")
    for what, message in audit.probes.failures:
        lines.append(f"No answer to {what}: {message}")
    return "\n".join(lines) + "\n"


def level_lines(audit: Audit) -> list[str]:
    """The Richardson level step by step: each step, what was seen, what is missing."""
    lines = [f"Richardson maturity level {audit.level}, step by step:"]
    for step in audit.steps:
        mark = "✓" if step.reached else "✗"
        lines.append(f"  {mark} level {step.level}, {step.title}: {step.seen}")
        if step.missing:
            lines.append(f"      missing for level {step.level}: {step.missing}")
        elif step.level > audit.level + 1:
            lines.append(f"      not counted: level {audit.level + 1} comes first")
    return lines


def constraint_lines(constraint: Constraint) -> list[str]:
    """One constraint: its title and score, why, and each figure with its examples."""
    lines = [f"{constraint.title}: {percent(constraint.score)}", f"  {constraint.why}"]
    for figure in constraint.figures:
        lines.append("  " + figure_line(figure))
        lines.extend(
            f"      {'✓' if example.ok else '✗'} {example.text}" for example in figure.examples
        )
    return lines


def figure_line(figure: Figure) -> str:
    """``name ........ 12 of 15  80%``, or the note when nothing was measured."""
    if not figure.total:
        return f"{figure.name}: not measured ({figure.note})" if figure.note else figure.name
    count = f"{figure.passed} of {figure.total}"
    return f"{figure.name:<{_NAME_WIDTH}} {count:>10}  {percent(figure.share):>4}"


def audit_json(audit: Audit) -> str:
    """The audit as one JSON document."""
    document = {
        "entry": audit.entry,
        "grade": audit.grade,
        "score": None if audit.score is None else round(audit.score, 4),
        "richardson_level": audit.level,
        "richardson_steps": [
            {
                "level": step.level,
                "title": step.title,
                "reached": step.reached,
                "seen": step.seen,
                "missing": step.missing,
            }
            for step in audit.steps
        ],
        "constraints": [
            {
                "key": c.key,
                "title": c.title,
                "score": None if c.score is None else round(c.score, 4),
                "why": c.why,
                "figures": [
                    {
                        "name": f.name,
                        "passed": f.passed,
                        "total": f.total,
                        "share": None if f.share is None else round(f.share, 4),
                        "note": f.note,
                        "examples": [{"ok": e.ok, "text": e.text} for e in f.examples],
                    }
                    for f in c.figures
                ],
            }
            for c in audit.constraints
        ],
        "versioning": {
            "styles": list(audit.versioning.styles),
            "evidence": list(audit.versioning.evidence),
        },
        "description": None
        if audit.description is None
        else {"url": audit.description[0], "get_paths": audit.description[1]},
        "pages": map_counts(audit.crawl.api_map, audit.crawl.entry).pages,
        "requests": audit.requests,
        "seconds": round(audit.seconds, 3),
        "stopped": audit.crawl.stopped,
        "failures": [{"request": w, "message": m} for w, m in audit.probes.failures]
        + [{"request": f"GET {f.url}", "message": f.message} for f in audit.crawl.failures],
    }
    return json_visible(orjson.dumps(document, option=orjson.OPT_INDENT_2)).decode() + "\n"
