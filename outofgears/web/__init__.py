"""The table in the browser (``outofgears table``, the optional extra ``[table]``): a web app
served on the local network, a thin transport over :class:`outofgears.table.room.Room`."""
