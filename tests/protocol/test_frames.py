"""The server writes its own websocket frames when no extension is negotiated
(`protocol.messages.ws_frame`, RFC 6455 section 5.2): they must be byte for byte what the
websockets library would write, at every length encoding (7-bit, 16-bit and 64-bit)."""

import pytest
from websockets.frames import Frame, Opcode

from protocol.messages import Message, encode, ws_frame


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_a_frame_is_what_the_websockets_library_writes_for_a_final_unmasked_binary_frame(size):
    payload = bytes(i % 251 for i in range(size))
    assert ws_frame(payload) == Frame(Opcode.BINARY, payload).serialize(mask=False)


def test_a_message_is_encoded_once_and_framed_from_that_encoding():
    message = Message(type="event", seq=3, event={"type": "discard", "seat": 1, "tile": 53})
    assert message.frame() is message.frame()
    assert message.wire() == ws_frame(encode(dict(message)))
