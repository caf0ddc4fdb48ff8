"""JSON answers written by orjson: Flask's own provider, with ``jsonify``'s body made
about ten times faster (a view of a long game is tens of kilobytes, on every request).

The text differs from ``json.dumps``'s only where JSON allows it to: characters beyond
ASCII are written as UTF-8 instead of ``\\u`` escapes, and a float that is not a number
as ``null`` (``json`` writes ``NaN``, which is not JSON).  Keys are sorted as before.  What
orjson refuses (integers beyond 64 bits, keys that are not strings) is written by
Flask's provider as before; so are indented answers (debug mode).  ``tojson`` in
templates and ``loads`` are Flask's unchanged.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

# Dates and dataclasses go to Flask's ``default`` as before (an HTTP date, not ISO 8601).
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
            | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)


class AnswerJSON(DefaultJSONProvider):
    """Flask's JSON provider whose ``response`` (``jsonify``) writes with orjson."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)  # indented, for people reading it
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError is one
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)
