"""How the session list is filtered by project, sorted and grouped (issue 33, "group and find"),
apart from the list's own query (views/sessions.py) so either can change alone.

A project is the directory the agent worked in (`Session.project`, from the imported file's cwd);
an agent is the program that recorded the session (`Session.source`: Claude Code, Codex, pi or
Cutpoint itself). Grouping orders the rows by the group first, so a page shows each group's rows
together under one heading, the groups in name order and the rows in the chosen order within."""

from __future__ import annotations

from typing import Final

from django.db.models import F, QuerySet

from sessions_app.models import Session

SORTS: Final = (("", "Latest activity"), ("cost", "Cost, highest first"), ("cost_asc", "Cost, lowest first"))
GROUPS: Final = (("", "No grouping"), ("project", "By project"), ("source", "By agent"))
SORT_VALUES: Final = frozenset(v for v, _ in SORTS if v)
GROUP_VALUES: Final = frozenset(v for v, _ in GROUPS if v)


def arrange(
    qs: QuerySet[Session], *, sort: str = "", group: str = "", project: str = ""
) -> QuerySet[Session]:
    if project:
        qs = qs.filter(project=project)
    if sort == "cost":
        # The priced total first; among equal totals, more unpriced calls first (they may cost more).
        order = [F("cost").desc(), F("unpriced_calls").desc(), F("id").desc()]
    elif sort == "cost_asc":
        order = [F("cost").asc(), F("unpriced_calls").asc(), F("id").asc()]
    else:
        order = [F("updated_at").desc(), F("id").desc()]
    if group in GROUP_VALUES:
        order.insert(0, F(group).asc())
    return qs.order_by(*order)


def projects(limit: int = 200) -> list[str]:
    """The projects sessions were recorded in, for the filter's choices."""
    return list(
        Session.objects.exclude(project="")
        .order_by("project")
        .values_list("project", flat=True)
        .distinct()[:limit]
    )
