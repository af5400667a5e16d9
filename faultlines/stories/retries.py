"""Lesson 2's stories: a flaky API call, a bad input, and a crashing worker, under Ray's retry options."""

from __future__ import annotations

import os
import time

import miniray as ray
from miniray import sim

OUTAGE_S = 2.5  # the quotes API resets every connection for the first 2.5 virtual seconds


def fetch_quote(max_retries: int = 3, retry_exceptions: bool | list = False) -> dict:
    ray.init(num_cpus=1)

    @ray.remote(max_retries=max_retries, retry_exceptions=retry_exceptions)
    def quote(item):
        time.sleep(0.5)  # the request
        if sim.now() < OUTAGE_S:
            raise ConnectionResetError("quotes API: connection reset by peer")
        return {"item": item, "price": 42}

    return ray.get(quote.remote("A-17"))


def parse_order(retry_exceptions: bool | list = True) -> dict:
    ray.init(num_cpus=1)

    @ray.remote(retry_exceptions=retry_exceptions)  # max_retries: Ray's default, 3
    def parse(line):
        time.sleep(0.5)
        qty, sku = line.split(",")  # a malformed line fails the same way every time
        return {"sku": sku, "qty": int(qty)}

    return ray.get(parse.remote("3;A-17"))


def crash_worker(max_retries: int = 3) -> int:
    ray.init(num_cpus=1)

    @ray.remote(max_retries=max_retries)
    def work():
        time.sleep(0.5)
        os._exit(1)  # the worker process dies: a system failure

    return ray.get(work.remote())
