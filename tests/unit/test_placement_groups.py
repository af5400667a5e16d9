"""Placement groups as Ray 2.60 shows them: API, strategies, bundles for tasks and actors, node loss."""

import time

import pytest

import miniray
from miniray import exceptions as exc
from miniray import sim
from miniray.cluster_utils import Cluster
from miniray.util.placement_group import (
    PlacementGroup,
    get_placement_group,
    placement_group,
    placement_group_table,
    remove_placement_group,
)
from miniray.util.scheduling_strategies import PlacementGroupSchedulingStrategy


@pytest.fixture
def make_cluster():
    made = []

    def make(nodes=(), system_config=None):
        sim.set_seed(0)
        c = Cluster(
            initialize_head=True, head_node_args={"num_cpus": 0, "_system_config": system_config or {}}
        )
        miniray.init(address=c.address)
        made.append(c)
        return c, [c.add_node(**args) for args in nodes]

    yield make
    miniray.shutdown()
    for c in made:
        c.shutdown()


def node_of(pg, index):
    return placement_group_table(pg)["bundles_to_node_id"].get(index)


def test_importable_where_ray_has_them():
    # As in Ray, miniray.util.placement_group is the function; its module still imports by path.
    assert miniray.util.placement_group is placement_group
    assert miniray.util.remove_placement_group is remove_placement_group
    assert miniray.util.PlacementGroupSchedulingStrategy is PlacementGroupSchedulingStrategy


def test_ready_resolves_to_the_group_when_created_and_table_has_rays_keys(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], name="pair")
    assert placement_group_table(pg)["state"] == "PENDING"
    assert miniray.get(pg.ready()) == pg
    row = placement_group_table(pg)
    assert row["state"] == "CREATED" and row["name"] == "pair" and row["strategy"] == "PACK"
    assert row["bundles"] == {0: {"CPU": 1.0}, 1: {"CPU": 1.0}}
    assert set(row["stats"]) >= {"scheduling_attempt", "scheduling_state", "highest_retry_delay_ms"}
    assert row["stats"]["scheduling_attempt"] == 1 and row["stats"]["scheduling_state"] == "FINISHED"
    assert pg.wait(timeout_seconds=1) is True
    assert get_placement_group("pair") == pg
    assert pg.id in placement_group_table()


def test_reserved_cpus_leave_the_pool_and_come_back_on_remove(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}])
    pg.wait(1)
    avail = miniray.available_resources()
    assert avail["CPU"] == 1.0 and avail[f"CPU_group_{pg.id}"] == 1.0 and avail[f"CPU_group_0_{pg.id}"] == 1.0
    remove_placement_group(pg)
    assert placement_group_table(pg)["state"] == "REMOVED"
    avail = miniray.available_resources()
    assert avail["CPU"] == 2.0 and not any("_group_" in k for k in avail)


@pytest.mark.parametrize(
    "strategy,expect_same",
    [("PACK", True), ("STRICT_PACK", True), ("SPREAD", False), ("STRICT_SPREAD", False)],
)
def test_strategies_pack_or_spread(make_cluster, strategy, expect_same):
    c, nodes = make_cluster([{"num_cpus": 2}, {"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy=strategy)
    assert pg.wait(1)
    assert (node_of(pg, 0) == node_of(pg, 1)) is expect_same


def test_strict_spread_needs_distinct_nodes_and_waits_infeasible_until_one_joins(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD")
    assert pg.wait(5) is False
    row = placement_group_table(pg)
    assert row["state"] == "PENDING" and row["stats"]["scheduling_state"] == "INFEASIBLE"
    c.add_node(num_cpus=1)
    assert pg.wait(1) is True


def test_bundle_label_selector_picks_labelled_nodes(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1, "labels": {"tier": t}} for t in ("L1", "L2")])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], bundle_label_selector=[{"tier": "L2"}, {"tier": "L1"}])
    assert pg.wait(1)
    assert node_of(pg, 0) == nodes[1].node_id and node_of(pg, 1) == nodes[0].node_id


def test_tasks_and_actors_run_in_their_bundle_and_plain_tasks_cannot_use_it(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1}, {"num_cpus": 1}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD")
    pg.wait(1)

    @miniray.remote
    def where():
        return 1

    @miniray.remote
    class Holder:
        def ping(self):
            return "ok"

    strat = PlacementGroupSchedulingStrategy(pg, placement_group_bundle_index=1)
    actor = Holder.options(num_cpus=1, scheduling_strategy=strat).remote()
    assert miniray.get(actor.ping.remote()) == "ok"
    assert c.rt.actors.actors[actor._actor.actor_id].node.node_id == node_of(pg, 1)
    ref = where.options(scheduling_strategy=PlacementGroupSchedulingStrategy(pg, 0)).remote()
    miniray.get(ref)
    spec = [s for s in c.rt.tasks.all if s.name.endswith("where")][0]
    assert spec.node.node_id == node_of(pg, 0)
    plain = where.remote()  # every CPU is reserved: a plain task must wait
    ready, _ = miniray.wait([plain], timeout=2)
    assert ready == []
    remove_placement_group(pg)
    ready, _ = miniray.wait([plain], timeout=2)
    assert ready == [plain]


def test_task_into_a_removed_group_fails_with_rays_error(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1}])
    pg = placement_group([{"CPU": 1}])
    pg.wait(1)
    remove_placement_group(pg)

    @miniray.remote
    def f():
        return 1

    with pytest.raises(exc.TaskPlacementGroupRemoved):
        miniray.get(f.options(scheduling_strategy=PlacementGroupSchedulingStrategy(pg)).remote(), timeout=5)


def test_node_loss_keeps_survivors_and_reschedules_only_lost_bundles(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1}, {"num_cpus": 1}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD")
    pg.wait(1)
    lost = 1 if node_of(pg, 1) == nodes[1].node_id else 0
    survivor_node = node_of(pg, 1 - lost)
    c.remove_node(nodes[1])
    sim.sleep(0.5)
    row = placement_group_table(pg)
    assert row["state"] == "RESCHEDULING"
    assert row["bundles_to_node_id"] == {1 - lost: survivor_node}
    fresh = c.add_node(num_cpus=1)
    assert pg.wait(1)
    assert node_of(pg, 1 - lost) == survivor_node and node_of(pg, lost) == fresh.node_id


def test_actor_in_a_lost_bundle_restarts_in_the_rescheduled_bundle(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1}, {"num_cpus": 1}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_SPREAD")
    pg.wait(1)
    index = 0 if node_of(pg, 0) == nodes[1].node_id else 1

    @miniray.remote(max_restarts=1)
    class Counter:
        def node(self):
            return 1

    a = Counter.options(num_cpus=1, scheduling_strategy=PlacementGroupSchedulingStrategy(pg, index)).remote()
    miniray.get(a.node.remote())
    c.remove_node(nodes[1])
    fresh = c.add_node(num_cpus=1)
    assert miniray.get(a.node.remote(), timeout=10) == 1
    actor = c.rt.actors.actors[a._actor.actor_id]
    assert actor.num_restarts == 1 and actor.node is fresh


def test_errors_name_the_fix(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 1}])
    with pytest.raises(ValueError, match="non-empty list"):
        placement_group([])
    with pytest.raises(ValueError, match="Supported strategies"):
        placement_group([{"CPU": 1}], strategy="PACKED")
    with pytest.raises(ValueError, match="one selector dict per bundle"):
        placement_group([{"CPU": 1}], bundle_label_selector=[{}, {}])
    pg = placement_group([{"CPU": 1}], name="x")
    with pytest.raises(ValueError, match="already taken"):
        placement_group([{"CPU": 1}], name="x")
    with pytest.raises(ValueError, match="out of range"):
        PlacementGroupSchedulingStrategy(pg, placement_group_bundle_index=1)
    assert isinstance(pg, PlacementGroup)


def test_removing_a_group_kills_its_actors_and_running_tasks(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}, {"CPU": 1}])
    pg.wait(1)

    @miniray.remote
    class A:
        def ping(self):
            return 1

    @miniray.remote(max_retries=1)
    def slow():
        time.sleep(100)
        return 1

    a = A.options(num_cpus=1, scheduling_strategy=PlacementGroupSchedulingStrategy(pg, 0)).remote()
    miniray.get(a.ping.remote())
    ref = slow.options(scheduling_strategy=PlacementGroupSchedulingStrategy(pg, 1)).remote()
    sim.sleep(1)
    remove_placement_group(pg)
    with pytest.raises(exc.RayActorError):
        miniray.get(a.ping.remote(), timeout=5)
    with pytest.raises(exc.TaskPlacementGroupRemoved):  # its retry finds the group gone
        miniray.get(ref, timeout=5)
    assert miniray.available_resources()["CPU"] == 2.0


def test_get_current_placement_group_inside_and_outside(make_cluster):
    from miniray.util.placement_group import get_current_placement_group

    c, nodes = make_cluster([{"num_cpus": 2}])
    pg = placement_group([{"CPU": 1}])
    pg.wait(1)

    @miniray.remote
    def current():
        return get_current_placement_group()

    assert get_current_placement_group() is None
    assert (
        miniray.get(current.options(scheduling_strategy=PlacementGroupSchedulingStrategy(pg)).remote()) == pg
    )
    assert miniray.get(current.remote()) is None


def test_a_task_can_create_a_named_group_and_block_on_it(make_cluster):
    """Bodies replay after blocking: creating the group must not run twice (or clash by name)."""
    c, nodes = make_cluster([{"num_cpus": 2}])

    @miniray.remote(num_cpus=1)
    def make():
        inner = placement_group([{"CPU": 1}], name="inner")
        miniray.get(inner.ready())
        return placement_group_table(inner)["state"]

    assert miniray.get(make.remote()) == "CREATED"
    assert [row["name"] for row in placement_group_table().values()] == ["inner"]


def test_soft_spread_shares_a_node_when_it_must_and_strict_pack_recovers_whole(make_cluster):
    c, nodes = make_cluster([{"num_cpus": 2}])
    spread = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="SPREAD")
    assert spread.wait(1) and node_of(spread, 0) == node_of(spread, 1)
    remove_placement_group(spread)
    packed = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_PACK")
    assert packed.wait(1)
    other = c.add_node(num_cpus=2)
    c.remove_node(nodes[0])  # both bundles lost together: the group moves as a whole
    assert packed.wait(1)
    assert node_of(packed, 0) == node_of(packed, 1) == other.node_id
