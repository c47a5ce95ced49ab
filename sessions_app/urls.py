from django.urls import path

from sessions_app.views import actions, pages, session, sessions

app_name = "sessions_app"

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
    path("import/", sessions.session_import, name="session_import"),
    path("agents/", pages.agent_definitions, name="agent_definitions"),
    path("compactions/<int:compaction_id>/", pages.compaction_detail, name="compaction_detail"),
    path("runs/<int:run_id>/", pages.run_detail, name="run_detail"),
    path("sessions/<int:session_id>/", session.session_detail, name="session_detail"),
    path("sessions/<int:session_id>/header/", session.session_header, name="session_header"),
    path("sessions/<int:session_id>/tree/", session.session_tree, name="session_tree"),
    path("sessions/<int:session_id>/context/", session.session_context, name="session_context"),
    path("sessions/<int:session_id>/cut/", session.session_cut, name="session_cut"),
    path("sessions/<int:session_id>/charts/", session.session_charts, name="session_charts"),
    path("sessions/<int:session_id>/timeline/", session.session_timeline, name="session_timeline"),
    path("sessions/<int:session_id>/runs/", session.session_runs, name="session_runs"),
    path("sessions/<int:session_id>/nodes/<path:key>/", session.node_detail, name="node_detail"),
    path("sessions/<int:session_id>/compact/", actions.compact_now, name="compact_now"),
    path("sessions/<int:session_id>/recover/", actions.recover, name="recover"),
    path("sessions/<int:session_id>/switch/", actions.switch_node, name="switch_node"),
    path("sessions/<int:session_id>/prompt/", actions.send_prompt, name="send_prompt"),
]
