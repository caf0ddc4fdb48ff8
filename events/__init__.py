"""The event store on Redis Streams: envelopes, codec, append/read, rebuild and replay."""
