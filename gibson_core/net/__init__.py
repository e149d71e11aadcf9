"""Online play: the wire protocol shared by the server and its clients (:mod:`.protocol`) and a client
library (:mod:`.client`). Nothing here holds a secret: a client only ever receives its own player's view."""
