import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically.
# Keep the app's own loggers alive when migrations run inside it.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def get_engine():
    return current_app.extensions["migrate"].db.engine


def get_engine_url():
    return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option("sqlalchemy.url", get_engine_url())
target_db = current_app.extensions["migrate"].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, "metadatas"):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)

    with context.begin_transaction():
        context.run_migrations()


def render_item(type_, obj, autogen_context):
    """Render our UTCDateTime as the plain column type it stores, so revisions do not
    import application code."""
    from models.base import UTCDateTime

    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def include_object(obj, name, type_, reflected, compare_to):
    """Leave the engine-specific search index (migration 0003) out of autogenerate: the
    FTS5 table and its shadow tables on SQLite, the tsvector columns and their GIN index
    on PostgreSQL, and the RUM indexes of migrations 0023 and 0024 where the extension is
    installed, the rank vector's GIN index (0026), its tiers' (0027) and its pairs' (0028)."""
    if type_ == "table" and name.startswith("document_search"):
        return False
    search_indexes = (
        "ix_document_texts_search_vector",
        "ix_document_texts_rank_rum",
        "ix_document_texts_rank_gin",
        "ix_document_texts_search_rum",
        "ix_document_texts_rank_pairs",
    )
    tiers = name is not None and name.startswith("ix_document_texts_rank_tier_")
    if type_ == "index" and (name in search_indexes or tiers) and reflected:
        return False
    return not (type_ == "column" and name in ("search_vector", "rank_vector") and reflected)


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives
    conf_args.setdefault("render_item", render_item)
    conf_args.setdefault("include_object", include_object)
    conf_args.setdefault("compare_type", True)

    connectable = get_engine()

    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)

        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
