"""The game for bots: observations, actions as numbers, returns, the bots themselves and the
adapters to PettingZoo and OpenSpiel.

A bot sees an :class:`~outofgears.play.observation.Observation`, never the state. This layer
sits on the rules (and the log format, for saved states); nothing below it imports it.
"""
