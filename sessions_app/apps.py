from django.apps import AppConfig


class SessionsAppConfig(AppConfig):
    name = "sessions_app"
    verbose_name = "Cutpoint sessions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the live-update receivers to the store's signals.
        from sessions_app.runtime import live  # noqa: F401
