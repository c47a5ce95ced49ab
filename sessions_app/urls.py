import re

from django.urls import path, register_converter

from sessions_app.presenters.panels import PANELS
from sessions_app.views.lazy import LazyView


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

def view(name: str) -> LazyView:
    """A view of sessions_app/views/, imported on its first request (views/lazy.py says why)."""
    return LazyView(f"sessions_app.views.{name}")


urlpatterns = [
    path("", view("sessions.session_list"), name="session_list"),
    path("import/", view("sessions.session_import"), name="session_import"),
    path("agents/", view("pages.agent_definitions"), name="agent_definitions"),
    path("search/", view("search.search_page"), name="search"),
    path("costs/", view("costs.cost_overview"), name="costs"),
    path("tokens/", view("tokens.api_tokens"), name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", view("tokens.revoke_api_token"), name="revoke_api_token"),
    path("compactions/<int:compaction_id>/", view("pages.compaction_detail"), name="compaction_detail"),
    path("compactions/<int:compaction_id>/audit/", view("audits.recompute_audit"), name="recompute_audit"),
    path("runs/<int:run_id>/", view("pages.run_detail"), name="run_detail"),
    path("artifacts/<int:artifact_id>/", view("artifacts.artifact_detail"), name="artifact_detail"),
    path("sessions/<int:session_id>/", view("session.session_detail"), name="session_detail"),
    path("sessions/<int:session_id>/header/", view("session.session_header"), name="session_header"),
    path("sessions/<int:session_id>/tree/", view("session.session_tree"), name="session_tree"),
    path("sessions/<int:session_id>/transcript/", view("transcript.transcript"), name="transcript"),
    path("sessions/<int:session_id>/costs/", view("costs.session_cost_page"), name="session_costs"),
    path("sessions/<int:session_id>/<panel:panel>/", view("session.session_panel"), name="session_panel"),
    path("sessions/<int:session_id>/nodes/<path:key>/", view("session.node_detail"), name="node_detail"),
    path("sessions/<int:session_id>/export/pi/", view("exports.export_pi_file"), name="export_pi"),
    path("sessions/<int:session_id>/export/html/", view("exports.export_html_file"), name="export_html"),
    path("sessions/<int:session_id>/compact/", view("actions.compact_now"), name="compact_now"),
    path(
        "sessions/<int:session_id>/compact/settings/",
        view("actions.compact_with_settings"),
        name="compact_with_settings",
    ),
    path(
        "sessions/<int:session_id>/compact/here/",
        view("actions.compact_up_to_here"),
        name="compact_up_to_here",
    ),
    path("sessions/<int:session_id>/recover/", view("actions.recover"), name="recover"),
    path(
        "sessions/<int:session_id>/compact/resume/",
        view("actions.resume_compaction"),
        name="resume_compaction",
    ),
    path("sessions/<int:session_id>/switch/", view("actions.switch_node"), name="switch_node"),
    path("sessions/<int:session_id>/undo/", view("actions.undo_compaction"), name="undo_compaction"),
    path("sessions/<int:session_id>/prompt/", view("actions.send_prompt"), name="send_prompt"),
]
