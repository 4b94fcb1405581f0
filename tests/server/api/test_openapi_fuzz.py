"""Hypothesis against the OpenAPI schema: every operation the schema lists, with path,
query and body values drawn from the schema itself (right types near their bounds, wrong
types, unknown fields), never answers 5xx, and every refusal is the error envelope.

Bounded: a fixed number of examples per operation, no shrinking deadline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import make_settings, two_player_table
from vertex.server import Limits, create_app

EXAMPLES = 40

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
junk = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def from_schema(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """A strategy for values of `schema` — mostly valid, sometimes not."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    if depth > 4:
        return junk
    if "anyOf" in schema or "oneOf" in schema:
        options = schema.get("anyOf") or schema.get("oneOf")
        return st.one_of([from_schema(s, defs, depth + 1) for s in options])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema.get("type")
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        edges = [x for b in (lo, hi) if b is not None for x in (b - 1, b, b + 1)]
        return st.integers(-5, 100) | (st.sampled_from(edges) if edges else st.integers())
    if kind == "number":
        return st.floats(allow_nan=False) | st.sampled_from([0, 0.1, 1e-300, 1e300, -1])
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        most = schema.get("maxLength", 30)
        return st.text(max_size=min(most + 2, 60))
    if kind == "array":
        items = from_schema(schema.get("items", {}), defs, depth + 1)
        return st.lists(items, max_size=4)
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return st.fixed_dictionaries(
            {},
            optional={
                **{k: from_schema(v, defs, depth + 1) | junk for k, v in props.items()},
                "surprise": junk,
            },
        )
    return junk


def operations(app: Any) -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path, methods in app.openapi()["paths"].items():
        for method, op in methods.items():
            out.append((method.upper(), path, op))
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("openapi")
    app = create_app(make_settings(Path(tmp), limits=Limits(tables_per_hour=100_000)))
    with TestClient(app, raise_server_exceptions=False) as client:
        tid, ann, _bob = two_player_table(client)
        yield app, client, tid, ann


def ids(app: Any) -> list[str]:
    return [f"{m} {p}" for m, p, _ in operations(app)]


_APP = create_app(make_settings(Path("/nonexistent")))


@pytest.mark.parametrize("which", ids(_APP))
def test_no_operation_answers_5xx(site: Any, which: str) -> None:
    app, client, tid, ann = site
    method, path, op = next(o for o in operations(app) if f"{o[0]} {o[1]}" == which)
    defs = app.openapi().get("components", {}).get("schemas", {})
    params = op.get("parameters", [])
    body_schema = (
        op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    )

    def param_values(p: dict[str, Any]) -> Any:
        if p["name"] == "table_id":
            return st.sampled_from([tid, "AAAAAAAAAAAAAAAA"]) | st.text(max_size=70)
        return from_schema(p.get("schema", {}), defs).map(str)

    path_params = {p["name"]: param_values(p) for p in params if p["in"] == "path"}
    query = {p["name"]: param_values(p) for p in params if p["in"] == "query"}
    body = from_schema(body_schema, defs) if body_schema else st.none()
    token = st.sampled_from([ann, "x"])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        where=st.fixed_dictionaries(path_params),
        q=st.fixed_dictionaries({}, optional=query),
        b=body,
        t=token,
        raw=st.booleans(),
    )
    def one(where: dict[str, str], q: dict[str, str], b: Any, t: str, raw: bool) -> None:
        url = path
        for name, value in where.items():
            url = url.replace("{" + name + "}", quote(value, safe="") or "_")
        if isinstance(b, dict) and "token" in b and isinstance(b["token"], str):
            b["token"] = t  # a real seat's token, sometimes
        content = json.dumps(b).encode() if not raw else json.dumps(b)[:7].encode()
        r = client.request(
            method,
            url,
            params=q,
            content=content if body_schema else None,
            headers={"content-type": "application/json"},
        )
        assert r.status_code < 500, (method, url, q, content, r.text)
        if r.status_code >= 400:
            assert "error" in r.json() and "code" in r.json()["error"], r.text

    one()
