"""Inbound mail's HTTP door: SendGrid Inbound Parse posts replies here (see worker.inbox).

``POST /inbound/sendgrid`` (the secret as HTTP basic auth password, any user name) or
``POST /inbound/sendgrid/<secret>`` (the secret in the path: simpler to set up in
SendGrid, but it shows in access logs).  Off (404) unless ``INBOUND_SECRET`` is set; a
missing or wrong secret is 401.  With ``INBOUND_VERIFY_KEY`` (SendGrid's ECDSA public
key, base64 DER as SendGrid shows it), the body must also carry SendGrid's signature
(``X-Twilio-Email-Event-Webhook-Signature`` over the ``...-Timestamp`` header followed by
the raw body, as ``sendgrid.helpers.eventwebhook`` checks it, here on the bytes) made
within the last 10 minutes: else 403.

The message is stored once (keyed by its Message-ID) and handed to the worker; the answer,
``200 {"stored": true|false}``, comes at once (SendGrid retries anything else for three
days; ``false``: that message was stored before).  Bodies up to SendGrid's own limit of
30 MB are read, since a reply may carry a photo or a signature image: attachments are
never stored (in raw mode they are emptied from the message first), and a message still
over 1 MB without them is answered 200 ``{"stored": false, "refused": ...}`` and logged,
since SendGrid would otherwise retry it for three days to the same end.

Decoding: Werkzeug would decode every form field as UTF-8 (with replacement characters),
which garbles a reply sent in, say, ISO-8859-1; so the multipart body is read here as
bytes (Werkzeug's own sans-IO decoder) and each text field is decoded with its part's
charset if it names one, else the one SendGrid's ``charsets`` field gives for it, else
UTF-8 (undecodable bytes replaced; ISO-8859-1 read as windows-1252).  The stored
``fields`` are therefore text already (``charsets`` is kept as SendGrid sent it, for the
record).  In raw mode the ``email`` field (the whole message) is stored as the message's
raw bytes, exactly as posted, and not among the fields.  Attachments (file parts) are
not stored: a move needs none.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import functools
import json
import logging
from email import policy
from email.parser import BytesParser
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.http import parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData

from service.auth import same_secret
from service.current import rt
from worker import inbox

log = logging.getLogger(__name__)

bp = Blueprint("inbound", __name__, url_prefix="/inbound")

BODY_LIMIT = 30 * 1024 * 1024  # SendGrid Inbound Parse's largest message
RATE = "600 per minute"  # per client address: SendGrid's own pace, with room to spare
MAX_PARTS = 200  # SendGrid posts about fifteen fields, plus one per attachment
SIGNATURE = "X-Twilio-Email-Event-Webhook-Signature"
TIMESTAMP = "X-Twilio-Email-Event-Webhook-Timestamp"
MAX_SIGNATURE_AGE = 600  # seconds: an older signed post is a replay


class BadForm(ValueError):
    """A body that is not SendGrid's multipart form."""


@bp.record_once
def _limits(state) -> None:
    # The app's body limit (64 KiB) and its size hook run before any hook of ours could.
    from service import limits
    limits.allow_larger_bodies(state.app, bp.name, BODY_LIMIT)
    limits.limit_per_client(state.app, bp, RATE)


@bp.post("/sendgrid")
@bp.post("/sendgrid/<secret>")
def sendgrid(secret: str | None = None):
    """Store one message posted by SendGrid Inbound Parse and hand it to the worker."""
    expected = current_app.config.get("INBOUND_SECRET")
    if not expected:
        return _answer(404, "not_found", "Inbound mail is not enabled here.")
    given = secret if secret is not None else (
        request.authorization.password if request.authorization else None)
    if not same_secret(given, str(expected)):
        response = _answer(401, "unauthorized", "The inbound secret is missing or wrong.")
        response.headers["WWW-Authenticate"] = 'Basic realm="ravenpost inbound"'
        return response
    body = request.get_data(cache=True)
    verify_key = current_app.config.get("INBOUND_VERIFY_KEY")
    if verify_key:
        problem = _signature_problem(str(verify_key), body)
        if problem:
            return _answer(403, "forbidden", problem)
    try:
        raw, fields = read_form(request.headers.get("Content-Type", ""), body)
        envelope_to = _envelope_to(fields)
        runtime = rt()
        key, new = inbox.store(runtime.redis, door="sendgrid", raw=raw, fields=fields,
                               envelope_to=envelope_to,
                               received_at=runtime.now().timestamp())
    except inbox.TooLarge as exc:
        log.warning("inbound: not stored, %s", exc)
        return jsonify({"stored": False, "refused": f"{exc}; nothing was stored"})
    except ValueError as exc:  # BadForm, or nothing to store
        return _answer(400, "bad_request", f"Refused: {exc}; nothing was stored.")
    if new or inbox.is_pending(runtime.redis, key):
        try:
            inbox.enqueue(runtime, key)
        except Exception:  # stored and pending: the sweep hands it over within a minute
            log.exception("inbound: could not enqueue %s", key)
    return jsonify({"stored": new})


def without_attachments(raw: bytes) -> bytes:
    """``raw`` with its attachments and non-text parts emptied (a move needs none), or
    as it is when it has none or cannot be parsed."""
    if len(raw) <= inbox.MAX_BYTES:
        return raw
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
        emptied = False
        for part in message.walk():
            if part.is_multipart():
                continue
            if part.get_content_disposition() == "attachment" \
                    or part.get_content_maintype() not in ("text", "message"):
                part.set_payload(b"")
                del part["Content-Transfer-Encoding"]
                emptied = True
        return message.as_bytes() if emptied else raw
    except Exception:  # a message the parser cannot take is stored (or refused) as sent
        return raw


def read_form(content_type: str, body: bytes) -> tuple[bytes | None, dict[str, str]]:
    """SendGrid's multipart form: the raw message (``email``, raw mode) as bytes, and the
    other text fields decoded (see the module's note).  Raises :class:`BadForm`."""
    mimetype, options = parse_options_header(content_type)
    boundary = options.get("boundary", "")
    if mimetype != "multipart/form-data" or not boundary:
        raise BadForm("expected a multipart/form-data body")
    try:
        parts = _parts(boundary.encode("latin-1"), body)
    except (UnicodeEncodeError, ValueError) as exc:
        raise BadForm(f"the multipart body is malformed ({exc})") from None
    raw = without_attachments(parts["email"][0]) if "email" in parts else None
    charsets = _charsets(parts["charsets"][0] if "charsets" in parts else None)
    fields = {}
    for name, (value, declared) in parts.items():
        if name != "email":
            fields[name] = value.decode(_codec(declared, charsets.get(name)), "replace")
    return raw, fields


def _parts(boundary: bytes, body: bytes) -> dict[str, tuple[bytes, str | None]]:
    """Each non-file field's bytes and the charset its part declares (the first of a
    repeated name); file parts are skipped, except an ``email`` sent as a file."""
    decoder = MultipartDecoder(boundary, max_form_memory_size=None, max_parts=MAX_PARTS)
    decoder.receive_data(body)
    decoder.receive_data(None)
    parts: dict[str, tuple[bytes, str | None]] = {}
    current: str | None = None
    chunks: list[bytes] = []
    charset: str | None = None
    while True:
        event = decoder.next_event()
        if isinstance(event, (Field, File)):
            keep = isinstance(event, Field) or event.name == "email"
            current = event.name if keep and event.name not in parts else None
            charset = parse_options_header(event.headers.get("Content-Type", ""))[1].get(
                "charset")
            chunks = []
        elif isinstance(event, Data):
            if current is not None:
                chunks.append(event.data)
                if not event.more_data:
                    parts[current] = (b"".join(chunks), charset)
                    current = None
        elif isinstance(event, Epilogue):
            return parts
        elif isinstance(event, NeedData):  # the body ended before the closing boundary
            raise ValueError("it ends early")


def _charsets(text: str | bytes | None) -> dict[str, str]:
    """SendGrid's ``charsets`` field: a JSON object of field name -> charset."""
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    return {str(k): v for k, v in found.items() if isinstance(v, str)} \
        if isinstance(found, dict) else {}


def _codec(*names: str | None) -> str:
    """The first of ``names`` that Python knows as a codec, else UTF-8.  ISO-8859-1 is
    read as windows-1252, as browsers and worker.inbound_mail do: mail clients that say
    the one often send the other's curly quotes."""
    for name in names:
        if name:
            try:
                found = codecs.lookup(name.strip()).name
            except (LookupError, ValueError):
                continue
            return "cp1252" if found == "iso8859-1" else found
    return "utf-8"


def _envelope_to(fields: dict[str, str]) -> list[str]:
    """The SMTP recipients of SendGrid's ``envelope`` field (JSON ``{"to": [...]}``)."""
    try:
        envelope = json.loads(fields.get("envelope") or "{}")
    except ValueError:
        return []
    found = envelope.get("to") if isinstance(envelope, dict) else None
    if isinstance(found, str):
        found = [found]
    return [str(a) for a in found] if isinstance(found, list) else []


def _signature_problem(verify_key: str, body: bytes) -> str | None:
    """Why the post's SendGrid signature is not good enough, or None if it is."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    signature, timestamp = request.headers.get(SIGNATURE), request.headers.get(TIMESTAMP)
    if not signature or not timestamp:
        return "The SendGrid signature is missing."
    try:
        age = rt().now().timestamp() - int(timestamp)
    except ValueError:
        return "The SendGrid signature's timestamp is not a number."
    if abs(age) > MAX_SIGNATURE_AGE:
        return "The SendGrid signature is too old (or from the future)."
    key = _public_key(verify_key)
    if key is None:
        log.error("INBOUND_VERIFY_KEY is not an ECDSA public key (base64 DER or PEM)")
        return "The signature cannot be checked: the service's key is misconfigured."
    try:
        key.verify(base64.b64decode(signature, validate=True),
                   timestamp.encode("ascii") + body, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, binascii.Error, ValueError):
        return "The SendGrid signature does not match."
    return None


@functools.lru_cache(maxsize=4)
def _public_key(text: str) -> Any:
    """The ECDSA public key of INBOUND_VERIFY_KEY (base64 DER, or PEM), or None."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import load_der_public_key
    lines = [line for line in text.strip().splitlines() if not line.startswith("-----")]
    try:
        key = load_der_public_key(base64.b64decode("".join("".join(lines).split())))
    except (ValueError, binascii.Error):
        return None
    return key if isinstance(key, ec.EllipticCurvePublicKey) else None


def _answer(status: int, error: str, message: str):
    response = jsonify({"error": error, "message": message})
    response.status_code = status
    return response

