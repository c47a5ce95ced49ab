"""The token charts' complete call groups, kept in the database (`CallGroups`): what a chart of a
long session drew of its calls, so that a view in another process, or after a restart, reads a
thousand rows' worth of text instead of aggregating every call again (issue 35).

Derived data, like an audit: a group of calls never changes once complete (calls are only ever
appended: store/calls.py), so what is kept stays true; a write that fails (a locked database)
costs the next view the aggregate, never the view itself. The format of `points` belongs to the
reader (presenters/charts/calls.py); here it is text.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, transaction

from sessions_app.models import CallGroups

log = logging.getLogger(__name__)


def keep_call_groups(session_id: int, per: int, groups: int, points: str, *, replace: bool = False) -> None:
    """Keep `groups` complete groups of `per` calls of the session, unless as many or more are
    kept already (a concurrent view kept them first); `replace`: whatever is kept (a format the
    reader no longer reads)."""
    try:
        with transaction.atomic():
            kept = CallGroups.objects.filter(session_id=session_id, per=per)
            if not replace:
                kept = kept.filter(groups__lt=groups)
            if not kept.update(groups=groups, points=points):
                CallGroups.objects.bulk_create(
                    [CallGroups(session_id=session_id, per=per, groups=groups, points=points)],
                    ignore_conflicts=True,
                )
    except DatabaseError:
        log.warning("the charts' call groups of session %s were not kept", session_id, exc_info=True)
