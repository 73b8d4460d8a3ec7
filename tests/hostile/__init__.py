"""The hostile-input suite: each test reproduces one hostile or broken input a person or a
planted file can hand Shipyard, and holds that nothing is lost, nothing runs that should not,
and the message says what is wrong in the user's words.

Run it alone with ``.venv/bin/pytest tests/hostile`` (CI runs it with the rest).
"""
