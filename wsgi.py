"""The web server's entry point: `gunicorn wsgi:app` (settings in gunicorn.conf.py).

The app without the operator commands: Flask-Migrate and Alembic stay out of web workers.
Migrations and every other command run through `flask` (FLASK_APP=app), which builds the
full app."""

from app import create_app

app = create_app(commands=False)
