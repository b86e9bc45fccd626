"""A game's deal beyond the hands: its number in the session, the stock and the card turned up (the family's
games: Euchre's turned card and kitty, the skat of Dreiwendsch, the passing direction of Hearts).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deal", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deal")
