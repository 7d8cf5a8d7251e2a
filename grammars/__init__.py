"""The Lark grammars of orders and email commands, installed as the package gm.grammars."""
