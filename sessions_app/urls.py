from django.urls import path

from sessions_app.views import sessions

app_name = "sessions_app"

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
]
