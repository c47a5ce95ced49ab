from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from sessions_app.views.lazy import LazyView

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    # OTLP/HTTP's standard path, at the root as exporters expect (docs/telemetry.md).
    path("v1/traces", LazyView("sessions_app.views.otlp.receive_traces"), name="otlp_traces"),
    path("", include("sessions_app.urls")),
]

# 403, 404 and 500 are Django's own views with templates/403.html, 404.html, 500.html.
handler400 = "sessions_app.views.errors.bad_request"
