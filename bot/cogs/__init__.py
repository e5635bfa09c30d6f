"""Slash commands: thin adapters that hand every interaction to bot.ui.controller."""
