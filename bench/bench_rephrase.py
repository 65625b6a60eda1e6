"""Benchmark: improve ~1 MB of mixed-language paragraphs through the offline service on loopback.

Starts ``rephrase-ls offline-service --port 0 --latency MS`` as a subprocess, then with the
service client:

* times ``plan_batches`` packing the paragraphs into ≤ 10 KiB JSON bodies (goal ≤ 50 ms per MB);
* improves them all in one ``rephrase()`` call and prints wall time / ideal, where ideal is
  ``ceil(requests / concurrency) × latency`` (goal ≤ 1.15); ``--repeat N`` (default 5) such
  calls, each with a fresh client, then the median ratio.

``--backend echo`` runs the same client against a minimal echo of the rephrase endpoint (same
latency, no improvement engine, its own process) to show the client's own overhead apart from
the offline engine's CPU time.

Run by hand: ``python bench/bench_rephrase.py --latency 100``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from bench_markup import _calibration
from rephrase_ls.service import SecretKey, ServiceClient, ServiceConfig, plan_batches
from rephrase_ls.service.batching import encode_json, json_text_size

LISTENING = "rephrase-ls offline service listening on "

SENTENCES = {
    "en": [
        "The committee reviewed the proposal and asked for a clearer budget.",
        "We will meet again next week to discuss the remaining questions.",
        "Most of the participants agreed that the schedule was too ambitious.",
        "Please send the final version of the report before Friday.",
        "The new library opened in the old railway station last spring.",
        "It was raining when they finally arrived at the small hotel.",
        "Our team has been working on this problem for several months.",
    ],
    "de": [
        "Der Ausschuss hat den Vorschlag geprüft und einen klareren Haushalt verlangt.",
        "Wir treffen uns nächste Woche wieder, um die offenen Fragen zu besprechen.",
        "Die meisten Teilnehmer waren sich einig, dass der Zeitplan zu ehrgeizig war.",
        "Bitte schicken Sie die endgültige Fassung des Berichts vor Freitag.",
        "Die neue Bibliothek wurde im letzten Frühjahr im alten Bahnhof eröffnet.",
        "Es regnete, als sie endlich in dem kleinen Hotel ankamen.",
        "Unser Team arbeitet seit mehreren Monaten an diesem Problem.",
    ],
    "fr": [
        "Le comité a examiné la proposition et a demandé un budget plus clair.",
        "Nous nous reverrons la semaine prochaine pour discuter des questions restantes.",
        "La plupart des participants ont convenu que le calendrier était trop ambitieux.",
        "Veuillez envoyer la version finale du rapport avant vendredi.",
        "La nouvelle bibliothèque a ouvert dans l'ancienne gare au printemps dernier.",
        "Il pleuvait quand ils sont enfin arrivés à ce petit hôtel.",
        "Notre équipe travaille sur ce problème depuis plusieurs mois.",
    ],
    "es": [
        "El comité revisó la propuesta y pidió un presupuesto más claro.",
        "Nos reuniremos de nuevo la próxima semana para hablar de las preguntas pendientes.",
        "La mayoría de los participantes estuvo de acuerdo en que el calendario era demasiado "
        "ambicioso.",
        "Por favor, envíe la versión final del informe antes del viernes.",
        "La nueva biblioteca abrió en la antigua estación de tren la primavera pasada.",
        "Estaba lloviendo cuando por fin llegaron al pequeño hotel.",
        "Nuestro equipo lleva varios meses trabajando en este problema.",
    ],
    "it": [
        "Il comitato ha esaminato la proposta e ha chiesto un bilancio più chiaro.",
        "Ci incontreremo di nuovo la prossima settimana per discutere le domande rimaste.",
        "La maggior parte dei partecipanti era d'accordo che il calendario fosse troppo ambizioso.",
        "Per favore, inviate la versione finale della relazione prima di venerdì.",
        "La nuova biblioteca è stata aperta nella vecchia stazione la primavera scorsa.",
        "Pioveva quando finalmente sono arrivati al piccolo albergo.",
        "Il nostro gruppo lavora a questo problema da diversi mesi.",
    ],
    "pt": [
        "O comitê analisou a proposta e pediu um orçamento mais claro.",
        "Vamos nos reunir novamente na próxima semana para discutir as questões restantes.",
        "A maioria dos participantes concordou que o cronograma era ambicioso demais.",
        "Por favor, envie a versão final do relatório antes de sexta-feira.",
        "A nova biblioteca foi inaugurada na antiga estação ferroviária na primavera passada.",
        "Estava chovendo quando eles finalmente chegaram ao pequeno hotel.",
        "Nossa equipe trabalha neste problema há vários meses.",
    ],
}


def make_paragraphs(total_bytes: int, seed: int) -> list[str]:
    """Deterministic paragraphs in six languages, ~``total_bytes`` of UTF-8 in all.

    Most paragraphs are 2–25 sentences; about one in fifty is long (over 10 KiB), so that
    splitting is exercised too.
    """
    rng = random.Random(seed)
    languages = sorted(SENTENCES)
    paragraphs: list[str] = []
    size = 0
    while size < total_bytes:
        lang = rng.choice(languages)
        count = rng.randint(120, 200) if rng.random() < 0.02 else rng.randint(2, 25)
        text = " ".join(rng.choice(SENTENCES[lang]) for _ in range(count))
        paragraphs.append(text)
        size += len(text.encode())
    return paragraphs


def time_packing(texts: list[str], runs: int) -> tuple[float, float, int]:
    """Best and median seconds to pack ``texts`` (the client's JSON body); and request count."""

    def encode(pieces: list[str]) -> bytes:
        return encode_json({"text": pieces})

    times = []
    plan = None
    for _ in range(runs):
        started = time.perf_counter()
        plan = plan_batches(texts, encode, measure=json_text_size)
        times.append(time.perf_counter() - started)
    assert plan is not None
    return min(times), statistics.median(times), plan.total_requests


def serve_echo(latency_ms: float) -> None:
    """Serve a bare echo of ``POST /v2/write/rephrase`` on 127.0.0.1 (for ``--backend echo``)."""
    import socket

    import uvicorn

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        await asyncio.sleep(latency_ms / 1000)
        texts = json.loads(body)["text"]
        answer = encode_json(
            {
                "improvements": [
                    {"text": t, "target_language": "xx", "detected_source_language": "xx"}
                    for t in texts
                ]
            }
        )
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(answer)).encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted connections only when the
    # listening socket says it is TCP; without it, Nagle + delayed ACK stall each response ~40 ms.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # accept (queue) connections before the address is announced
    print(f"{LISTENING}http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


def start_service(
    latency_ms: float, backend: str, overlap: bool = False
) -> tuple[subprocess.Popen[str], str]:
    if backend == "offline":
        command = [sys.executable, "-P", "-m", "rephrase_ls", "offline-service"]
        # --preload: word lists load before timing starts, as in a service that has been
        # running for a while (otherwise each worker's first request per language loads them).
        command += ["--port", "0", "--latency", str(latency_ms), "--preload"]
        if overlap:
            command.append("--overlap-latency")
    else:
        command = [sys.executable, __file__, "--serve-echo", "--latency", str(latency_ms)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith(LISTENING):
        process.kill()
        raise SystemExit(f"the offline service did not start: {line!r}")
    return process, line[len(LISTENING) :].strip()


async def run_rephrase(url: str, texts: list[str], concurrency: int) -> tuple[float, float, int]:
    """Wall seconds, client CPU seconds and request count of one ``rephrase()`` of all texts."""
    config = ServiceConfig(
        server_url=url, api_key=SecretKey("bench-key"), max_concurrency=concurrency
    )
    requests = 0

    def progress(done: int, total: int) -> None:
        nonlocal requests
        requests = total

    async with ServiceClient(config, backend="offline") as client:
        # Warm up: open the keep-alive connections once, as a long-running server would have.
        await asyncio.gather(*(client.rephrase([texts[0]]) for _ in range(concurrency)))
        started, cpu_started = time.perf_counter(), time.process_time()
        results = await client.rephrase(texts, on_progress=progress)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if len(results) != len(texts):
        raise SystemExit(f"{len(results)} results for {len(texts)} texts")
    return wall, cpu, requests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=100.0, help="added latency, ms")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--size", type=int, default=1_000_000, help="bytes of text")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=7, help="packing runs (best is reported)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="rephrase runs against the same service (each is printed, then the median: one "
        "run on a shared host can land far from the others)",
    )
    parser.add_argument(
        "--backend",
        choices=["offline", "echo"],
        default="offline",
        help="the offline service (default), or a bare echo to isolate the client's overhead",
    )
    parser.add_argument(
        "--overlap-latency",
        action="store_true",
        help="let the offline service work during its latency (max(latency, work) per answer) "
        "instead of adding the latency to its work",
    )
    parser.add_argument("--serve-echo", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_echo:
        serve_echo(args.latency)
        return 0

    texts = make_paragraphs(args.size, args.seed)
    total = sum(len(t.encode()) for t in texts)
    langs = Counter(
        next(lang for lang, sents in SENTENCES.items() if t.startswith(tuple(sents))) for t in texts
    )
    long_texts = sum(1 for t in texts if len(t.encode()) > 10 * 1024)
    print(
        f"texts: {len(texts)} paragraphs, {total / 1e6:.2f} MB UTF-8, {long_texts} over 10 KiB; "
        + ", ".join(f"{k} {v}" for k, v in sorted(langs.items()))
    )

    best, median, planned = time_packing(texts, args.runs)
    per_mb = best / (total / 1e6)
    print(
        f"packing: {planned} requests; best {best * 1e3:.1f} ms, median {median * 1e3:.1f} ms "
        f"for {total / 1e6:.2f} MB = {per_mb * 1e3:.1f} ms per MB (goal ≤ 50)"
    )

    # The ratio is CPU work against a fixed latency, so it follows the host's speed: say it.
    print(f"calibration: a 1M-iteration loop takes {_calibration():.1f} ms of CPU now")
    process, url = start_service(args.latency, args.backend, args.overlap_latency)
    ratios: list[float] = []
    try:
        for run in range(1, args.repeat + 1):
            wall, cpu, requests = asyncio.run(run_rephrase(url, texts, args.concurrency))
            ideal = math.ceil(requests / args.concurrency) * args.latency / 1000
            ratio = "ratio n/a (no latency)"
            if ideal > 0:
                ratios.append(wall / ideal)
                ratio = f"ratio {wall / ideal:.3f} (goal ≤ 1.15)"
            print(
                f"rephrase ({args.backend}) run {run}/{args.repeat}: {requests} requests, "
                f"concurrency {args.concurrency}, latency {args.latency:g} ms: wall {wall:.2f} s, "
                f"ideal {ideal:.2f} s, {ratio}; {wall / requests * 1e3:.1f} ms wall and "
                f"{cpu / requests * 1e3:.2f} ms client CPU per request"
            )
    finally:
        process.terminate()
        process.wait(timeout=10)
    if len(ratios) > 1:
        print(
            f"ratio over {len(ratios)} runs: median {statistics.median(ratios):.3f}, "
            f"{min(ratios):.3f}–{max(ratios):.3f} (goal ≤ 1.15); calibration after the runs "
            f"{_calibration():.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
