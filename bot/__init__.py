"""The Discord bot: storage, the table service and the discord.py cogs."""
