"""``baccarat verify``: a round checked against the commitment published before its shoe and its
shoe's fairness chain (R37), from a proof built here as the server builds it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from baccarat.cli.app import app
from baccarat.fairness import redeal
from baccarat.rng import commitment_of
from baccarat.server import game
from baccarat.server.chain import client_seed_of, digest_of, link_of, record_of
from baccarat.server.fairness_chain import main_bet_outcome
from baccarat.shoe import ShoeConfig

runner = CliRunner()
SEED = "5" * 64
COMMITMENT = commitment_of(SEED)
ENTROPY = ["from-ann", "from-bob"]


def _bets(round_id: int, winner: str) -> list[dict[str, Any]]:
    out = []
    for n, kind in enumerate(("player", "banker", "tie")):
        outcome = main_bet_outcome(kind, winner)
        paid = {"win": 1000 if kind != "tie" else 8000, "lose": 0, "push": 0}[str(outcome)]
        returned = 0 if outcome == "lose" else 1000 + paid
        out.append(
            {
                "id": round_id * 10 + n,
                "kind": kind,
                "stake": 1000,
                "status": "settled",
                "outcome": outcome,
                "paid": paid,
                "commission": 0,
                "returned": returned,
            }
        )
    return out


def _proof(rounds: int = 3, *, at: int = 2, server_seed: str = SEED, commitment: str = COMMITMENT) -> dict[str, Any]:
    """The proof of coup ``at`` of a shoe whose first ``rounds`` coups were settled, as the server gives it."""
    config = ShoeConfig().to_dict()
    client_seed = client_seed_of("macau", 4, commitment, ENTROPY)
    dealer = redeal(config, server_seed=server_seed, client_seed=client_seed)
    chain, previous, records = [], commitment, {}
    for coup in range(1, rounds + 1):
        cards = [str(c) for c in dealer.next_coup().result.cards]
        result = {"cards": cards, **game.coup_from_cards(cards).to_dict()}
        row = {
            "id": 100 + coup,
            "table_id": "macau",
            "number": 50 + coup,
            "coup_in_shoe": coup,
            "status": "settled",
            "result": json.dumps(result),
            "cards": json.dumps({"cards": cards}),
            "void_reason": None,
        }
        records[coup] = record_of(row, _bets(100 + coup, result["winner"]))
        previous = link_of(previous, digest_of(records[coup]))
        chain.append(
            {"round_id": 100 + coup, "coup_in_shoe": coup, "digest": digest_of(records[coup]), "link": previous}
        )
    record = json.loads(records[at])
    return {
        "round_id": 100 + at,
        "table": "macau",
        "shoe": 4,
        "commitment": commitment,
        "server_seed": server_seed,
        "client_seed": client_seed,
        "entropy": ENTROPY,
        "config": config,
        "first_shoe_number": 1,
        "coup_in_shoe": at,
        "cards": record["cards"],
        "record": records[at],
        "chain": chain[:at],
        "chain_link": chain[at - 1]["link"],
    }


def _verify(tmp_path: Path, proof: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps({"proof": proof}), encoding="utf-8")
    return runner.invoke(app, ["verify", str(path), "--json", *args])


def _reason(result: Any) -> str:
    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout)
    assert answer["ok"] is False
    return str(answer["reason"])


def test_a_round_verifies_against_the_published_commitment(tmp_path: Path) -> None:
    proof = _proof()
    result = _verify(tmp_path, proof, "--commitment", COMMITMENT, "--link", proof["chain"][0]["link"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"ok": True, "reason": "", "round_id": 102}


def test_the_published_commitment_is_required(tmp_path: Path) -> None:
    result = _verify(tmp_path, _proof())
    assert result.exit_code == 2 and "--commitment must be the 64 hex digits" in result.stderr
    bad = _verify(tmp_path, _proof(), "--commitment", "xyz")
    assert bad.exit_code == 2 and "not 'xyz'" in bad.stderr


def test_a_changed_winner_fails_even_with_the_chain_rebuilt(tmp_path: Path) -> None:
    proof = _proof()
    record = json.loads(proof["record"])
    winner = record["result"]["winner"]
    record["result"]["winner"] = "tie" if winner != "tie" else "player"
    forged = json.dumps(record, sort_keys=True, separators=(",", ":"))
    # the changed record alone breaks the chain
    assert "is not the one the chain holds" in _reason(
        _verify(tmp_path, proof | {"record": forged}, "--commitment", COMMITMENT)
    )
    # rebuilt from the commitment, the chain holds it, but the cards do not make that result
    chain = [dict(e) for e in proof["chain"]]
    chain[-1]["digest"] = digest_of(forged)
    chain[-1]["link"] = link_of(chain[-2]["link"], chain[-1]["digest"])
    rebuilt = proof | {"record": forged, "chain": chain, "chain_link": chain[-1]["link"]}
    assert "result is not the one its cards make" in _reason(_verify(tmp_path, rebuilt, "--commitment", COMMITMENT))


@pytest.mark.parametrize("field", ["paid", "outcome"])
def test_a_changed_payout_fails(tmp_path: Path, field: str) -> None:
    proof = _proof()
    record = json.loads(proof["record"])
    bet = next(b for b in record["bets"] if b["bet"] == "player")
    bet[field] = 99_999 if field == "paid" else ("lose" if bet["outcome"] != "lose" else "win")
    forged = json.dumps(record, sort_keys=True, separators=(",", ":"))
    assert "is not the one the chain holds" in _reason(
        _verify(tmp_path, proof | {"record": forged}, "--commitment", COMMITMENT)
    )
    # with the whole chain rebuilt, a link published when the round settled no longer matches
    published = proof["chain"][-1]["link"]
    chain = [dict(e) for e in proof["chain"]]
    chain[-1]["digest"] = digest_of(forged)
    chain[-1]["link"] = link_of(chain[-2]["link"], chain[-1]["digest"])
    rebuilt = proof | {"record": forged, "chain": chain, "chain_link": chain[-1]["link"]}
    pinned = _reason(_verify(tmp_path, rebuilt, "--commitment", COMMITMENT, "--link", published))
    assert "does not hold the published link" in pinned
    if field == "outcome":  # an outcome the result does not give fails with no link given too
        assert "is recorded as" in _reason(_verify(tmp_path, rebuilt, "--commitment", COMMITMENT))
    else:  # a changed amount in a rebuilt chain is caught by the published link alone
        assert _verify(tmp_path, rebuilt, "--commitment", COMMITMENT).exit_code == 0


def test_a_swapped_shoe_fails_against_the_published_commitment(tmp_path: Path) -> None:
    other = "9" * 64
    swapped = _proof(server_seed=other, commitment=commitment_of(other))  # consistent in itself
    assert _verify(tmp_path, swapped, "--commitment", commitment_of(other)).exit_code == 0
    assert "does not match the published commitment" in _reason(_verify(tmp_path, swapped, "--commitment", COMMITMENT))


def test_the_client_seed_must_be_the_one_the_entropy_makes(tmp_path: Path) -> None:
    proof = _proof()
    dropped = proof | {"entropy": ENTROPY[:1]}
    assert "client seed is not the one" in _reason(_verify(tmp_path, dropped, "--commitment", COMMITMENT))


def test_a_round_missing_from_the_chain_fails(tmp_path: Path) -> None:
    proof = _proof()
    assert "holds no record of coup 2" in _reason(
        _verify(tmp_path, proof | {"chain": proof["chain"][:1]}, "--commitment", COMMITMENT)
    )
    gap = [proof["chain"][1]]
    assert "link 1 of the chain" in _reason(_verify(tmp_path, proof | {"chain": gap}, "--commitment", COMMITMENT))


def test_an_incomplete_proof_exits_2(tmp_path: Path) -> None:
    proof = _proof()
    del proof["chain"]
    result = _verify(tmp_path, proof, "--commitment", COMMITMENT)
    assert result.exit_code == 2 and "the proof lacks chain" in result.stderr
