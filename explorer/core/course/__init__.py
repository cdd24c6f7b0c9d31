"""The course: lessons checked against what the learner really sent, with no Textual.

- :mod:`~explorer.core.course.lesson`: one lesson file (Markdown with TOML front matter);
- :mod:`~explorer.core.course.catalog`: a lesson folder (``chapters.toml`` and the
  lessons), read and checked strictly;
- :mod:`~explorer.core.course.steps`, :mod:`~explorer.core.course.patterns`,
  :mod:`~explorer.core.course.facts` and :mod:`~explorer.core.course.sequence`: the
  check's vocabulary: what one exchange must be, the text it expects, and steps in
  order over a lesson's exchanges;
- :mod:`~explorer.core.course.run`: the lesson open, its exchanges and outcome;
- :mod:`~explorer.core.course.driver`: the run beside a browser tab (resets, other
  clients' requests, every exchange watched);
- :mod:`~explorer.core.course.progress`: the lessons done, kept between runs.

The lessons restwalk ships are data in ``explorer/course/`` (``FORMAT.md`` there is
the teacher's reference). Showing a lesson is the TUI's; the command line's
``restwalk learn`` lists, checks and starts it.
"""
