"""The first schema: tables, their places (people and bots), games and the games' actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "places",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("place", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True),
        sa.Column("away", sa.Boolean, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("seating", sa.JSON, nullable=False),
        sa.Column("hands", sa.JSON, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action", sa.JSON, nullable=False),
        sa.ForeignKeyConstraint(["table_id", "number"], ["games.table_id", "games.number"]),
    )


def downgrade() -> None:
    for name in ("actions", "games", "places", "tables"):
        op.drop_table(name)
