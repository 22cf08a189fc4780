"""Events as msgspec JSON: the mapper and the transcoder eventsourcing is configured with.

The shape of eventsourcing's ``examples/aggregate9``: the mapper encodes each event Struct
itself, so the transcoder is never asked to.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from eventsourcing.utils import get_topic, resolve_topic

encoder = msgspec.json.Encoder()
"""One JSON encoder for events and snapshot states."""


class MsgspecMapper(Mapper[UUID]):
    """Stores each event as the JSON of its msgspec Struct, decoded back to the exact type."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = encoder.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return msgspec.json.decode(state, type=resolve_topic(stored_event.topic))


class UnusedTranscoder(Transcoder):
    """The mapper encodes Structs itself; eventsourcing still wants a transcoder object."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError
