"""``/docs``: the API described from its own OpenAPI, rendered here, so it reads with no internet."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .templating import templates

router = APIRouter(include_in_schema=False)
METHODS = ("get", "post", "put", "patch", "delete")


def operations(openapi: dict[str, Any]) -> list[dict[str, Any]]:
    """Each operation of an OpenAPI document: method, path, summary, parameters, body and answers."""
    schemas = openapi.get("components", {}).get("schemas", {})
    found = []
    for path, item in openapi.get("paths", {}).items():
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            found.append({
                "method": method.upper(), "path": path, "id": operation.get("operationId", f"{method}-{path}"),
                "summary": operation.get("summary", ""), "description": operation.get("description", ""),
                "parameters": [{"name": p["name"], "in": p["in"], "required": p.get("required", False),
                                "type": _type(p.get("schema", {})), "description": p.get("description", "")}
                               for p in operation.get("parameters", [])],
                "body": _fields(body, schemas) if body else None,
                "responses": [(status, answer.get("description", ""))
                              for status, answer in operation.get("responses", {}).items()],
            })
    return found


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_type(option) for option in schema["anyOf"])
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    return str(schema.get("type", "any"))


def _fields(schema: dict[str, Any], schemas: dict[str, Any]) -> list[tuple[str, str, bool, str]]:
    """A request body's fields: name, type, required, description."""
    if "$ref" in schema:
        schema = schemas.get(str(schema["$ref"]).rsplit("/", 1)[-1], {})
    required = set(schema.get("required", []))
    return [(name, _type(field), name in required, field.get("description", ""))
            for name, field in schema.get("properties", {}).items()]


@router.get("/docs", response_class=HTMLResponse)
def api_page(request: Request) -> HTMLResponse:
    openapi = request.app.openapi()
    return templates.TemplateResponse(request, "api.html", {
        "title": openapi["info"]["title"], "version": openapi["info"]["version"],
        "description": openapi["info"].get("description", ""), "operations": operations(openapi), "private": False})
