# Copyright The Ray Authors. Licensed under the Apache License, Version 2.0 (see LICENSE in
# this folder, or http://www.apache.org/licenses/LICENSE-2.0).
# Origin: https://github.com/ray-project/ray/blob/2be0863bd342c1b66d8aea2687b5769cab15a3ba/doc/source/ray-core/doc_code/fault_tolerance_tips.py
# Copied unchanged except its Ray import lines (`ray` -> `miniray`); the lines below this
# header are Ray's.
# --- end of Fault Lines header ---
# __return_ray_put_start__
import miniray as ray

# Non-fault tolerant version:
@ray.remote
def A():
    x_ref = ray.put(1)
    return x_ref

x_ref = ray.get(A.remote())
# Object x outlives its owner task A.
try:
    # If owner of x (i.e. the worker process running task A) dies,
    # the application can no longer get value of x anymore.
    print(ray.get(x_ref))
except ray.exceptions.OwnerDiedError:
    pass


# Fault tolerant version:
@ray.remote
def B():
    return 1

# The owner of y is the driver
# so y is accessible and can be auto recovered
# during the entire lifetime of the driver.
y_ref = B.remote()
print(ray.get(y_ref))
# __return_ray_put_end__


# __return_child_task_start__
# Non-fault tolerant version:
@ray.remote
def A():
    return 1

@ray.remote
def B():
    x_ref = A.remote()
    return x_ref

# Object x outlives its owner task B.
x_ref = ray.get(B.remote())
try:
    # If owner of x (i.e. the worker process running task B) dies,
    # the application can no longer get value of x anymore.
    print(ray.get(x_ref))
except ray.exceptions.OwnerDiedError:
    pass

# Fault tolerant version:
@ray.remote
def C():
    x_ref = A.remote()
    # Here we create a new object y that has the same value as x
    y = ray.get(x_ref)
    return y

# The owner of y is the dirver
# so y is accessible and can be auto recovered
# during the entire lifetime of the driver.
y_ref = C.remote()
print(ray.get(y_ref))
# __return_child_task_end__


# __node_ip_resource_start__
@ray.remote
def D():
    return 1

# If the node with ip 127.0.0.3 fails while task D is running,
# Ray won't be able to retry the task on other nodes.
D.options(resources={"node:127.0.0.3":1}).remote()
# __node_ip_resource_end__
