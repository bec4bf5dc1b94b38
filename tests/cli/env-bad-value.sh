# A knob of the environment with a value it does not take: refused, not silently the default.
MYCL_READ_AHEAD=maybe "$MYCL_HOT" "$DATA/hotloop.data"
