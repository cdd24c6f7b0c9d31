"""The ``{{$...}}`` variables both tools define, each a fresh value at every use.

=====================================  ===========================================
``$uuid``, ``$random.uuid``, ``$guid``  a random (version 4) UUID
``$timestamp [N unit]``                 Unix seconds now (N units later; -N before)
``$isoTimestamp``                       now in ISO 8601, UTC
``$datetime FORMAT [N unit]``           UTC time as ``rfc1123``, ``iso8601`` or a
                                        quoted Day.js format ``"YYYY-MM-DD"``
``$localDatetime FORMAT [N unit]``      the same in the local time zone
``$randomInt [MIN MAX]``                an integer, MIN included, MAX not (0 to 1000)
``$random.integer(MIN, MAX)``           the same (JetBrains' spelling)
``$random.float(MIN, MAX)``             a float, MIN included, MAX not
``$random.alphabetic(N)`` ...           N random letters (``alphanumeric``,
                                        ``hexadecimal`` too); ``$random.email``
=====================================  ===========================================

Units are VS Code's: ``y M w d h m s ms``. The variables that read the
machine (``$processEnv``, ``$env.NAME``, ``$dotenv``) are resolved in
:mod:`explorer.core.httpfile.variables`, which knows where to look.
"""

from __future__ import annotations

import random
import re
import string
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from explorer.core.httpfile.errors import BadVariable

__all__ = ["SYSTEM_NAMES", "dayjs_format", "system_value"]

_RANDOM = random.SystemRandom()
_UNITS = {"y", "M", "w", "d", "h", "m", "s", "ms"}
_CALL = re.compile(r"^\$random\.(\w+)\((.*)\)$")
_DEFAULT_INT_RANGE = (0, 1000)

#: The names restwalk gives a value (what an editor would complete).
SYSTEM_NAMES = (
    "$uuid",
    "$random.uuid",
    "$guid",
    "$timestamp",
    "$isoTimestamp",
    "$datetime",
    "$localDatetime",
    "$randomInt",
    "$random.integer",
    "$random.float",
    "$random.alphabetic",
    "$random.alphanumeric",
    "$random.hexadecimal",
    "$random.email",
    "$processEnv",
    "$env.NAME",
    "$dotenv",
)

# Day.js tokens (https://day.js.org/docs/en/display/format), longest first.
_DAYJS: list[tuple[str, Callable[[datetime], str]]] = [
    ("YYYY", lambda t: f"{t.year:04d}"),
    ("YY", lambda t: f"{t.year % 100:02d}"),
    ("MMMM", lambda t: t.strftime("%B")),
    ("MMM", lambda t: t.strftime("%b")),
    ("MM", lambda t: f"{t.month:02d}"),
    ("M", lambda t: str(t.month)),
    ("DD", lambda t: f"{t.day:02d}"),
    ("D", lambda t: str(t.day)),
    ("dddd", lambda t: t.strftime("%A")),
    ("ddd", lambda t: t.strftime("%a")),
    ("d", lambda t: str(t.isoweekday() % 7)),
    ("HH", lambda t: f"{t.hour:02d}"),
    ("H", lambda t: str(t.hour)),
    ("hh", lambda t: f"{(t.hour % 12) or 12:02d}"),
    ("h", lambda t: str((t.hour % 12) or 12)),
    ("mm", lambda t: f"{t.minute:02d}"),
    ("m", lambda t: str(t.minute)),
    ("ss", lambda t: f"{t.second:02d}"),
    ("s", lambda t: str(t.second)),
    ("SSS", lambda t: f"{t.microsecond // 1000:03d}"),
    ("A", lambda t: "PM" if t.hour >= 12 else "AM"),
    ("a", lambda t: "pm" if t.hour >= 12 else "am"),
    ("ZZ", lambda t: t.strftime("%z")),
    ("Z", lambda t: t.strftime("%z")[:3] + ":" + t.strftime("%z")[3:]),
    ("X", lambda t: str(int(t.timestamp()))),
    ("x", lambda t: str(int(t.timestamp() * 1000))),
]


def dayjs_format(moment: datetime, form: str) -> str:
    """``moment`` in the Day.js format ``form`` (``[text]`` is kept as it is)."""
    out: list[str] = []
    index = 0
    while index < len(form):
        if form[index] == "[":
            end = form.find("]", index)
            if end != -1:
                out.append(form[index + 1 : end])
                index = end + 1
                continue
        for token, render in _DAYJS:
            if form.startswith(token, index):
                out.append(render(moment))
                index += len(token)
                break
        else:
            out.append(form[index])
            index += 1
    return "".join(out)


def _offset(words: list[str], reference: str) -> timedelta:
    """``[N unit]`` as a time span (months and years counted as 30 and 365 days)."""
    if not words:
        return timedelta()
    if len(words) != 2 or words[1] not in _UNITS:
        raise BadVariable(
            f"{{{{{reference}}}}}: the offset must be a number and a unit "
            f"(y M w d h m s ms), as in '-1 d', not {' '.join(words)!r}."
        )
    try:
        count = int(words[0])
    except ValueError:
        raise BadVariable(f"{{{{{reference}}}}}: {words[0]!r} is not a whole number.") from None
    days = {"y": 365, "M": 30, "w": 7, "d": 1}
    unit = words[1]
    if unit in days:
        return timedelta(days=count * days[unit])
    return {
        "h": timedelta(hours=count),
        "m": timedelta(minutes=count),
        "s": timedelta(seconds=count),
        "ms": timedelta(milliseconds=count),
    }[unit]


def _words(text: str) -> list[str]:
    """Arguments split at spaces; a quoted one ('...' or "...") stays one word."""
    return [a or b or c for a, b, c in re.findall(r"'([^']*)'|\"([^\"]*)\"|(\S+)", text)]


def _datetime(words: list[str], reference: str, local: bool) -> str:
    if not words:
        raise BadVariable(
            f"{{{{{reference}}}}} needs a format: rfc1123, iso8601 or a quoted one "
            "such as 'YYYY-MM-DD'."
        )
    moment = datetime.now(UTC) + _offset(words[1:], reference)
    if local:
        moment = moment.astimezone()
    form = words[0]
    if form == "rfc1123":
        return format_datetime(moment.astimezone(UTC), usegmt=True)
    if form == "iso8601":
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return dayjs_format(moment, form)


def _bounds(text: str, reference: str, convert: Callable[[str], float]) -> tuple[float, float]:
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        return _DEFAULT_INT_RANGE
    if len(parts) != 2:
        raise BadVariable(f"{{{{{reference}}}}} needs two bounds, MIN and MAX, or none.")
    try:
        low, high = convert(parts[0]), convert(parts[1])
    except ValueError:
        raise BadVariable(f"{{{{{reference}}}}}: the bounds must be numbers.") from None
    if high <= low:
        raise BadVariable(f"{{{{{reference}}}}}: MAX must be more than MIN.")
    return low, high


def _random_text(alphabet: str, count_text: str, reference: str) -> str:
    try:
        count = int(count_text.strip() or "10")
    except ValueError:
        raise BadVariable(f"{{{{{reference}}}}}: the length must be a whole number.") from None
    if not 0 <= count <= 10_000:
        raise BadVariable(f"{{{{{reference}}}}}: the length must be 0 to 10000.")
    return "".join(_RANDOM.choice(alphabet) for _ in range(count))


def _random_call(function: str, arguments: str, reference: str) -> str | None:
    """``$random.integer(1, 10)`` and its kind; None for a function not known."""
    if function == "integer":
        low, high = _bounds(arguments, reference, int)
        return str(_RANDOM.randrange(int(low), int(high)))
    if function == "float":
        low, high = _bounds(arguments, reference, float)
        return repr(_RANDOM.uniform(low, high))
    alphabets = {
        "alphabetic": string.ascii_letters,
        "alphanumeric": string.ascii_letters + string.digits + "_",
        "hexadecimal": "0123456789abcdef",
    }
    if function in alphabets:
        return _random_text(alphabets[function], arguments, reference)
    return None


def system_value(reference: str) -> str | None:
    """The value of ``{{$...}}`` (``reference`` is what is between the braces), or None
    when restwalk does not know the variable. Raises :class:`BadVariable` for a known
    one given arguments it cannot use."""
    name, _, rest = reference.partition(" ")
    words = _words(rest)
    if name in ("$uuid", "$random.uuid", "$guid"):
        return str(uuid.uuid4())
    if name == "$timestamp":
        return str(int((datetime.now(UTC) + _offset(words, reference)).timestamp()))
    if name == "$isoTimestamp":
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        return now.replace("+00:00", "Z")
    if name in ("$datetime", "$localDatetime"):
        return _datetime(words, reference, local=name == "$localDatetime")
    if name == "$randomInt":
        low, high = _bounds(rest, reference, int)
        return str(_RANDOM.randrange(int(low), int(high)))
    if name == "$random.email":
        user = _random_text(string.ascii_lowercase, "8", reference)
        return f"{user}@example.com"
    call = _CALL.match(reference.strip())
    if call:
        return _random_call(call.group(1), call.group(2), reference)
    return None
