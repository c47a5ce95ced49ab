import re

from django.urls import path, register_converter

from sessions_app.presenters.panels import PANELS
from sessions_app.views import (
    actions,
    artifacts,
    audits,
    costs,
    exports,
    pages,
    search,
    session,
    sessions,
    tokens,
    transcript,
)


class PanelConverter:
    """Matches the registered panel ids only, so `sessions/<id>/<panel>/` keeps each panel's own
    URL without shadowing the other `sessions/<id>/…/` routes, wherever they are listed."""

    regex = "|".join(re.escape(panel_id) for panel_id in PANELS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PanelConverter, "panel")

app_name = "sessions_app"

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
    path("import/", sessions.session_import, name="session_import"),
    path("agents/", pages.agent_definitions, name="agent_definitions"),
    path("search/", search.search_page, name="search"),
    path("costs/", costs.cost_overview, name="costs"),
    path("tokens/", tokens.api_tokens, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", tokens.revoke_api_token, name="revoke_api_token"),
    path("compactions/<int:compaction_id>/", pages.compaction_detail, name="compaction_detail"),
    path("compactions/<int:compaction_id>/audit/", audits.recompute_audit, name="recompute_audit"),
    path("runs/<int:run_id>/", pages.run_detail, name="run_detail"),
    path("artifacts/<int:artifact_id>/", artifacts.artifact_detail, name="artifact_detail"),
    path("sessions/<int:session_id>/", session.session_detail, name="session_detail"),
    path("sessions/<int:session_id>/header/", session.session_header, name="session_header"),
    path("sessions/<int:session_id>/tree/", session.session_tree, name="session_tree"),
    path("sessions/<int:session_id>/transcript/", transcript.transcript, name="transcript"),
    path("sessions/<int:session_id>/costs/", costs.session_cost_page, name="session_costs"),
    path("sessions/<int:session_id>/<panel:panel>/", session.session_panel, name="session_panel"),
    path("sessions/<int:session_id>/nodes/<path:key>/", session.node_detail, name="node_detail"),
    path("sessions/<int:session_id>/export/pi/", exports.export_pi_file, name="export_pi"),
    path("sessions/<int:session_id>/export/html/", exports.export_html_file, name="export_html"),
    path("sessions/<int:session_id>/compact/", actions.compact_now, name="compact_now"),
    path(
        "sessions/<int:session_id>/compact/settings/",
        actions.compact_with_settings,
        name="compact_with_settings",
    ),
    path("sessions/<int:session_id>/compact/here/", actions.compact_up_to_here, name="compact_up_to_here"),
    path("sessions/<int:session_id>/recover/", actions.recover, name="recover"),
    path("sessions/<int:session_id>/compact/resume/", actions.resume_compaction, name="resume_compaction"),
    path("sessions/<int:session_id>/switch/", actions.switch_node, name="switch_node"),
    path("sessions/<int:session_id>/undo/", actions.undo_compaction, name="undo_compaction"),
    path("sessions/<int:session_id>/prompt/", actions.send_prompt, name="send_prompt"),
]
