"""Damier settings: one module, everything that differs between machines comes from the environment.

DATABASE_URL          default: SQLite file db.sqlite3 in the project folder; postgres://… uses psycopg 3
DJANGO_SECRET_KEY     required when DJANGO_DEBUG=0
DJANGO_DEBUG          1 (default, development) or 0 (production)
DJANGO_ALLOWED_HOSTS  comma-separated; default localhost names when debugging, required when DJANGO_DEBUG=0
DAMIER_PDN_MAX_BYTES  largest game-sheet upload accepted (default 2 MB)
DAMIER_MAX_PLAYERS    the largest event the arbiter's forms are sized for (default 1000: 10,000 form fields)
DAMIER_AXES_*         login throttling: _ENABLED (1), _FAILURE_LIMIT (5), _COOLOFF_MINUTES (15)
DAMIER_CLIENT_IP_HEADER  behind a reverse proxy: the header carrying the client's address (e.g. X-Real-IP)
DAMIER_UPLOAD_MAX_BYTES  largest uploaded file (default 5 MB), cut while it arrives
DAMIER_FONT_DIR       where the PDFs find DejaVu Sans (default /usr/share/fonts/truetype/dejavu)
DAMIER_CACHE_URL      redis://… for a cache shared by several servers (default: files, one machine)
DAMIER_CACHE_DIR      the file cache's folder; DAMIER_PAGE_CACHE 1/0 (default: on when DJANGO_DEBUG=0)
DAMIER_CDN_SECONDS    seconds a CDN may serve a public page without asking (default 0: always revalidate)
DAMIER_SITE_URL       the site's address for QR codes (https://damier.example.org); default: the request's host
DJANGO_CONN_MAX_AGE   seconds a database connection is kept (default 0; 60 for a crowd, see README)
DAMIER_CSP, DAMIER_PERMISSIONS_POLICY  the Content-Security-Policy and Permissions-Policy sent (empty: none)
DJANGO_SECURE_SSL_REDIRECT, DJANGO_HSTS_SECONDS, DJANGO_CSRF_TRUSTED_ORIGINS  production (DJANGO_DEBUG=0) only
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected 1/0, true/false, yes/no or on/off")


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    # Development only: a fixed key keeps sessions valid across restarts of `make demo`.
    SECRET_KEY = "django-insecure-damier-development-only-key-never-used-in-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get(
        "DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else ""
    ).split(",")
    if h.strip()
]
if not DEBUG and not ALLOWED_HOSTS:
    # Otherwise every request would be refused with a 400 and nothing would say why.
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must name the site's host(s) when DJANGO_DEBUG=0")

INSTALLED_APPS = [
    "config.admin.DamierAdminConfig",  # django.contrib.admin, its index listing the control rooms
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "simple_history",
    "axes",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every answer (config/http.py).
    "config.http.SecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Public pages compressed, the admin and logged-in pages not (BREACH: see tournaments/web/compression.py).
    # After WhiteNoise, which serves static files itself, already compressed.
    "tournaments.web.compression.PublicGZipMiddleware",
    # A stored public page for an anonymous reader is answered here, before the layers below it that
    # cannot change it (sessions, auth, CSRF, messages, history, axes): see tournaments/web/stored_pages.py.
    "tournaments.web.stored_pages.StoredPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # After LocaleMiddleware: `?lang=nl` in a shared link wins over the reader's cookie and browser.
    "tournaments.web.language.LanguageFromQueryMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # After the messages: a deadlock or serialization failure becomes the page again with a message.
    "tournaments.web.busy.BusyDatabaseMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes requires: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

# Axes first so a locked-out username/IP is refused before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: 5 failures for one username from one address lock that pair out for 15 minutes.
# Keyed on username+IP so a stranger cannot lock an arbiter out from everywhere during a round.
AXES_ENABLED = env_bool("DAMIER_AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("DAMIER_AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("DAMIER_AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Behind a reverse proxy every connection comes from the proxy: name the header it sets with the client's
# address (X-Real-IP or X-Forwarded-For), else one stranger locks an arbiter out for everybody.
# Only set it when a proxy you run strips or overwrites that header: otherwise a client can forge it.
DAMIER_CLIENT_IP_HEADER = os.environ.get("DAMIER_CLIENT_IP_HEADER", "")
AXES_CLIENT_IP_CALLABLE = "config.http.client_ip"

# Reverting an object to an old history record would write around the services (round status,
# optimistic version, sheet replay): history is shown, never replayed.
SIMPLE_HISTORY_REVERT_DISABLED = True

ROOT_URLCONF = "config.urls"

# Inputs and menus written in Python (tournaments/web/form_renderer.py): the same HTML, a third of the time.
FORM_RENDERER = "tournaments.web.form_renderer.FastWidgetRenderer"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "tournaments.web.language.context",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
    )
}
# Every request is one transaction: a failure anywhere leaves nothing half-written.
DATABASES["default"]["ATOMIC_REQUESTS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two arbiters at once on SQLite: a request waits for the other's write (up to 20 s) instead of
    # failing with "database is locked". IMMEDIATE takes the write lock when the request's transaction
    # begins, so a reader never has to upgrade to a writer mid-way (which SQLite refuses at once).
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})

# --- Caches and several servers ---------------------------------------------------------
# tournaments/web/public_cache.py keeps the public pages, PDFs and PDN exports in the default cache, keyed on
# each tournament's version (moved by database triggers), so nothing in a cache is ever stale.
# DAMIER_CACHE_URL=redis://host:6379/0 : Django's Redis backend, shared by every server of a federation.
# Unset: files in DAMIER_CACHE_DIR, shared by all gunicorn workers of one machine and needing no server.
DAMIER_CACHE_URL = os.environ.get("DAMIER_CACHE_URL", "")
if DAMIER_CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    # A Redis that is down or unreachable is a miss (tournaments.web.public_cache): a refused connection fails at
    # once, and these bound how long an unanswered one can hold a request.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": DAMIER_CACHE_URL, "KEY_PREFIX": "damier", "TIMEOUT": 24 * 3600,
                          "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}}}
elif DAMIER_CACHE_URL:
    raise ImproperlyConfigured(f"DAMIER_CACHE_URL={DAMIER_CACHE_URL!r}: expected redis://, rediss:// or unix://")
else:
    import hashlib
    import tempfile

    # One folder per installation and database, so two Damiers on one machine never read each other's pages.
    _where = hashlib.sha256(f"{BASE_DIR}|{DATABASES['default'].get('NAME')}".encode()).hexdigest()[:12]
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("DAMIER_CACHE_DIR", str(Path(tempfile.gettempdir()) / f"damier-cache-{_where}")),
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 5000, "CULL_FREQUENCY": 4},
    }}
# Each server process also keeps the pages it served last in its own memory: a stored page's key names the
# tournament's version, so its content never changes and the copy can never be stale, and reading it there
# skips the shared cache's file (or Redis) read and decompression for most of the crowd's requests.
CACHES["pages-local"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "damier-pages",
                         "TIMEOUT": 600, "OPTIONS": {"MAX_ENTRIES": 60, "CULL_FREQUENCY": 3}}
# Pages from the cache: on in production; off while developing (an edited template shows at once).
# ETags and 304 answers work either way.
DAMIER_PAGE_CACHE = env_bool("DAMIER_PAGE_CACHE", not DEBUG)
# Seconds a CDN or proxy may serve a public page without asking (0: it asks every time, gets a 304).
DAMIER_CDN_SECONDS = int(os.environ.get("DAMIER_CDN_SECONDS", "0"))
# Where the QR codes of the screens and PDFs lead (tournaments/hall/qr.py). Set it when the site answers to
# several names: a stored page or PDF then never carries the name it was first asked by.
DAMIER_SITE_URL = os.environ.get("DAMIER_SITE_URL", "").strip().rstrip("/")
# Nothing lives in one process: sessions in the database, login throttling in the database (axes).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# FMJD works in French and English; the largest federations play in Dutch (KNDB) and Russian.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("nl", "Nederlands"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "admin:login"

DAMIER_PDN_MAX_BYTES = int(os.environ.get("DAMIER_PDN_MAX_BYTES", str(2 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = max(DAMIER_PDN_MAX_BYTES + 65536, 2621440)
# Damier runs opens of 1,000 players: the round page posts five fields a board (2,500 for 500 boards) and the
# tournament page four an entry (4,000). Django's default of 1,000 answered such a page with a bare 400 and
# lost what was typed; twice the largest form leaves room. Each field is a few bytes, and the memory limit
# above bounds the body whatever its count.
DAMIER_MAX_PLAYERS = int(os.environ.get("DAMIER_MAX_PLAYERS", "1000"))
DATA_UPLOAD_MAX_NUMBER_FIELDS = max(1000, 10 * DAMIER_MAX_PLAYERS)
# Uploads are cut as they arrive: the largest file accepted anywhere (a 5 MB player list, a PDN sheet),
# checked chunk by chunk before the memory/temporary-file handlers keep it (config.http). The web server's
# own body limit (README, deployment) refuses bigger bodies before they reach Django at all.
DAMIER_UPLOAD_MAX_BYTES = int(os.environ.get("DAMIER_UPLOAD_MAX_BYTES", str(max(DAMIER_PDN_MAX_BYTES,
                                                                              5 * 1024 * 1024))))
FILE_UPLOAD_HANDLERS = [
    "config.http.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440  # above it, a temporary file (never more than the limit above)

# What a page may load and use (config.http.SecurityPolicyMiddleware). Scripts only from this site's files;
# the live pages fetch themselves (connect-src); the board diagram is inline SVG; no frames, no plugins.
DAMIER_CSP = os.environ.get("DAMIER_CSP", "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
    "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'",
    "frame-ancestors 'none'",
]))
DAMIER_PERMISSIONS_POLICY = os.environ.get("DAMIER_PERMISSIONS_POLICY", ", ".join(
    f"{feature}=()" for feature in ("accelerometer", "camera", "geolocation", "gyroscope", "magnetometer",
                                    "microphone", "payment", "usb")))

if not DEBUG:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    CSRF_TRUSTED_ORIGINS = [
        o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
    ]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
