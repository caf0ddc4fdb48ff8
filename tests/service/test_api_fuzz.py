"""The JSON API against its own OpenAPI document, with generated input (schemathesis).

No request, however odd, may cause a server error, an undocumented status, or a body
that contradicts the document.  (A schema-valid body may still be refused when the
rules say no: an unknown time zone, a player count the game does not take.)
"""

from __future__ import annotations

import fakeredis
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service import create_app
from tests.support import ADMIN

app = create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                  "RUN_JOBS_INLINE": True, "SECRET_KEY": "fuzz", "ADMIN_TOKEN": ADMIN})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(headers={"Authorization": f"Bearer {ADMIN}"}, checks=CHECKS)
