"""Events as msgspec JSON: the mapper and the transcoder eventsourcing is configured with.

The shape of eventsourcing's ``examples/aggregate9``: the mapper encodes each event Struct
itself, so the transcoder is never asked to. Personal fields are sealed under each person's
key on the way in and unsealed on the way out (``service.storage.personal``): the domain sees plain
fields, the store holds none.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from eventsourcing.utils import get_topic, resolve_topic

from service.storage.personal import PersonalCodec

encoder = msgspec.json.Encoder()
"""One JSON encoder for events and snapshot states."""


class MsgspecMapper(Mapper[UUID]):
    """Stores each event as the JSON of its msgspec Struct, decoded back to the exact type."""

    personal: PersonalCodec | None = None
    """Set by the event store (it owns the key table); without it nothing is sealed."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if self.personal is not None:
            state = self.personal.encode(domain_event)
        else:
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
        kind = resolve_topic(stored_event.topic)
        if self.personal is not None:
            return self.personal.decode(state, kind)
        return msgspec.json.decode(state, type=kind)


class UnusedTranscoder(Transcoder):
    """The mapper encodes Structs itself; eventsourcing still wants a transcoder object."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError
