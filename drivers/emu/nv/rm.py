"""The virtual resource manager: clients, their object trees, and NV_ESC_RM_ALLOC / FREE / CONTROL.

Statuses are the RM's own, in the order it checks (rmapi/alloc_free.c, control.c, resserv):

- RM_ALLOC: unknown client -> NV_ERR_INVALID_OBJECT_HANDLE; a class the RM does not know ->
  NV_ERR_INVALID_CLASS; a handle that is 0-reserved, the client's or taken -> NV_ERR_INVALID_OBJECT_HANDLE
  / NV_ERR_INSERT_DUPLICATE_NAME; a parent that is missing or of the wrong kind ->
  NV_ERR_INVALID_OBJECT_PARENT; NULL parameters for a class that requires them -> NV_ERR_INVALID_ARGUMENT;
  parameters that are not mapped -> NV_ERR_INVALID_ADDRESS; a GPU class the chip does not list ->
  NV_ERR_INVALID_CLASS.
- RM_CONTROL: unknown client -> NV_ERR_INVALID_CLIENT; params pointer and size disagreeing, or a size
  that is not the command's -> NV_ERR_INVALID_ARGUMENT; unknown object -> NV_ERR_INVALID_OBJECT_HANDLE;
  a command the object's class does not take -> NV_ERR_NOT_SUPPORTED.

Stricter than the RM in one place, loudly: the RM reads sizeof(its struct) from pAllocParms and
ignores paramsSize, so a struct of another driver branch is silently misread there; here a
paramsSize that is not the branch's size is NV_ERR_INVALID_PARAM_STRUCT.  Each refusal's reason is
kept in `last_error` and printed with DEBUG>=2.

Classes with a constructor below are emulated (client, device, subdevice); the others of
classes.RESOURCES are validated fully and then refused with NV_ERR_NOT_SUPPORTED, naming the class.
"""
import itertools

import nv_ioctl as NV
from cffi import FFI

from drivers.emu.memory import PAGE_SIZE, host_range_mapped
from drivers.emu.nv.classes import CHANNEL, CLIENT, DEVICE, NONE, REQUIRED, RESOURCES, SUBDEVICE
from drivers.emu.nv.gpu import log

_ffi = FFI()
CLIENT_HANDLE_BASE = 0xC1D00000          # how the RM numbers user clients
OBJECT_HANDLE_BASE = 0xCAF00000          # and the handles it picks for hObjectNew = 0


class RmFailure(Exception):
    """A status the RM returns, with the reason (for DEBUG output and tests)."""

    def __init__(self, status, reason):
        super().__init__(f"{status}: {reason}")
        self.status, self.reason = status, reason


def copy_from_user(address, size, what):
    """The caller's bytes (copy_from_user); NV_ERR_INVALID_ADDRESS when they are not mapped."""
    if size == 0:
        return b""
    start = address & ~(PAGE_SIZE - 1)
    end = -(-(address + size) // PAGE_SIZE) * PAGE_SIZE
    if not address or not host_range_mapped(start, end - start):
        raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{address:x} (+{size} bytes) is not mapped memory")
    return bytes(_ffi.buffer(_ffi.cast("char *", address), size))


def copy_to_user(address, data):
    _ffi.memmove(_ffi.cast("char *", address), bytes(data), len(data))


class RmObject:
    def __init__(self, handle, class_id, kind, parent, gpu=None):
        self.handle, self.class_id, self.kind, self.parent, self.gpu = handle, class_id, kind, parent, gpu
        self.children = []

    @property
    def class_name(self):
        return NV.class_name(self.class_id)

    def descendants(self):
        for child in self.children:
            yield from child.descendants()
            yield child

    def destroy(self):
        """The object is being freed (its children already were): release what it holds."""

    def describe(self):
        return f"{self.class_name} 0x{self.handle:x}"


class RmClient(RmObject):
    def __init__(self, handle, class_id, owner):
        super().__init__(handle, class_id, CLIENT, None)
        self.objects = {handle: self}
        self.owner = owner                  # the /dev/nvidiactl file that allocated it
        self._handles = itertools.count(OBJECT_HANDLE_BASE + 1)

    def new_handle(self):
        while True:
            handle = next(self._handles)
            if handle not in self.objects:
                return handle


class ResourceManager:
    """The RM of one machine: every client, over every GPU."""

    def __init__(self, machine, layouts):
        self.machine, self.layouts = machine, layouts
        self.gpus = machine.gpus
        self.clients = {}
        self._client_handles = itertools.count(1)
        self.last_error = None
        from drivers.emu.nv.controls import CONTROL_HANDLERS
        from drivers.emu.nv.rm_fifo import CONTROLS as FIFO_CONTROLS
        self.control_handlers = dict(CONTROL_HANDLERS)
        self.control_handlers.update(FIFO_CONTROLS)         # per machine: tests may take one away

    def _status(self, failure, what):
        self.last_error = f"{what}: {failure.status}: {failure.reason}"
        log(2, f"virtual RM: {self.last_error}")
        return self.layouts.status_code(failure.status)

    # -- RM_ALLOC ------------------------------------------------------------------------------
    def alloc(self, args, owner):
        """NVOS21/NVOS64 in `args` (hObjectNew and status written back)."""
        what = f"RM_ALLOC of {NV.class_name(args.hClass)}"
        try:
            args.hObjectNew = self._alloc(args.hRoot, args.hObjectParent, args.hObjectNew, args.hClass,
                                          args.pAllocParms, args.paramsSize, owner)
            args.status = NV.NV_OK
        except RmFailure as f:
            args.status = self._status(f, what)

    def _alloc(self, h_root, h_parent, h_new, h_class, p_params, params_size, owner):
        resource = RESOURCES.get(h_class)
        if h_class in (NV.NV01_ROOT, NV.NV01_ROOT_NON_PRIV, NV.NV01_ROOT_CLIENT):
            h_class = NV.NV01_ROOT_CLIENT      # the kernel turns every user client into _CLIENT
            params = self._params(resource, h_class, p_params, params_size)
            return self._new_client(h_new, params, owner)
        client = self._client(h_root, "NV_ERR_INVALID_OBJECT_HANDLE")
        if resource is None:
            raise RmFailure("NV_ERR_INVALID_CLASS", f"class 0x{h_class:x} is not a class the RM knows")
        if h_new == 0:
            h_new = client.new_handle()
        elif h_new == client.handle or h_new in client.objects:
            status = "NV_ERR_INVALID_OBJECT_HANDLE" if h_new == client.handle else "NV_ERR_INSERT_DUPLICATE_NAME"
            raise RmFailure(status, f"handle 0x{h_new:x} is already in use in client 0x{client.handle:x}")
        parent = client.objects.get(h_parent)
        if parent is None:
            raise RmFailure("NV_ERR_INVALID_OBJECT_PARENT", f"no object 0x{h_parent:x} in client 0x{client.handle:x}")
        if parent.kind not in resource.parents:
            raise RmFailure("NV_ERR_INVALID_OBJECT_PARENT",
                            f"{NV.class_name(h_class)} goes under a {' or '.join(resource.parents)}, "
                            f"not under {parent.class_name} 0x{h_parent:x} (a {parent.kind})")
        params = self._params(resource, h_class, p_params, params_size)
        gpu = parent.gpu
        if resource.gpu_class and h_class not in gpu.classes:
            raise RmFailure("NV_ERR_INVALID_CLASS", f"{NV.class_name(h_class)} is not in the class list of "
                            f"{gpu.card.chip} ({gpu.card.model})")
        construct = constructors().get(h_class)
        if construct is None:
            raise RmFailure("NV_ERR_NOT_SUPPORTED", f"{NV.class_name(h_class)} is valid here but not emulated "
                            "by the virtual RM yet")
        obj = construct(self, client, parent, h_new, h_class, params)
        client.objects[h_new] = obj
        parent.children.append(obj)
        return h_new

    def _params(self, resource, h_class, pointer, size):
        """The allocation parameters as the branch's struct (None when there are none)."""
        name = NV.CLASS_PARAMS.get(h_class) if resource.params != NONE else None
        if h_class == NV.NV01_ROOT_CLIENT:
            name = "NvHandle"                  # the RM reads only the handle (NV0000_ALLOC_PARAMETERS' first field)
        if name is None:
            return None
        if pointer == 0:
            if resource.params == REQUIRED:
                raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{NV.class_name(h_class)} requires {name}, "
                                "pAllocParms is NULL")
            return None
        expected = self.layouts.sizeof(name)
        allowed = {expected} | ({self.layouts.sizeof("NV0000_ALLOC_PARAMETERS")} if name == "NvHandle" else set())
        if size not in allowed:
            raise RmFailure("NV_ERR_INVALID_PARAM_STRUCT",
                            f"paramsSize {size} for {NV.class_name(h_class)}, but {name} is {expected} bytes in "
                            f"driver {self.layouts.tag} (the real RM reads {expected} bytes regardless)")
        data = copy_from_user(pointer, expected, f"{name} at pAllocParms")
        if name == "NvHandle":
            return int.from_bytes(data, "little")
        return self.layouts.from_buffer(name, bytearray(data))

    def _new_client(self, h_new, requested, owner):
        if requested:                         # a handle requested in the parameters wins
            h_new = requested
        if h_new == 0:
            while True:
                h_new = CLIENT_HANDLE_BASE + next(self._client_handles)
                if h_new not in self.clients:
                    break
        elif h_new in self.clients:
            raise RmFailure("NV_ERR_INSERT_DUPLICATE_NAME", f"client handle 0x{h_new:x} is taken")
        self.clients[h_new] = RmClient(h_new, NV.NV01_ROOT_CLIENT, owner)
        return h_new

    def _client(self, handle, status):
        client = self.clients.get(handle)
        if client is None:
            raise RmFailure(status, f"no client 0x{handle:x}")
        return client

    # -- RM_FREE -------------------------------------------------------------------------------
    def free(self, args):
        try:
            client = self._client(args.hRoot, "NV_ERR_INVALID_OBJECT_HANDLE")
            if args.hObjectOld == client.handle:
                self.free_client(client)
            else:
                obj = client.objects.get(args.hObjectOld)
                if obj is None:
                    raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE",
                                    f"no object 0x{args.hObjectOld:x} in client 0x{client.handle:x}")
                self._free_object(client, obj)
            args.status = NV.NV_OK
        except RmFailure as f:
            args.status = self._status(f, "RM_FREE")

    def _free_object(self, client, obj):
        for child in list(obj.descendants()) + [obj]:
            client.objects.pop(child.handle, None)
            child.destroy()
        obj.parent.children.remove(obj)

    def free_client(self, client):
        self.clients.pop(client.handle, None)
        for obj in list(client.descendants()):
            obj.destroy()
        client.objects.clear()
        client.children.clear()

    def lookup(self, h_client, handle, kinds, what, status="NV_ERR_INVALID_OBJECT_HANDLE"):
        """Object `handle` of client `h_client`, which must be one of `kinds` (RmFailure otherwise)."""
        client = self._client(h_client, "NV_ERR_INVALID_CLIENT")
        obj = client.objects.get(handle)
        if obj is None:
            raise RmFailure(status, f"{what}: no object 0x{handle:x} in client 0x{h_client:x}")
        if kinds and obj.kind not in kinds:
            raise RmFailure(status, f"{what}: 0x{handle:x} is {obj.class_name} (a {obj.kind}), not a "
                            f"{' or '.join(kinds)}")
        return obj

    def objects(self, kind=None):
        """Every live object (of `kind`), over every client."""
        for client in self.clients.values():
            for obj in client.objects.values():
                if obj is not client and (kind is None or obj.kind == kind):
                    yield obj

    def release(self, owner):
        """The /dev/nvidiactl file that made these clients was closed: they go with it."""
        for client in [c for c in self.clients.values() if c.owner is owner]:
            self.free_client(client)

    # -- stopping channels before they are freed ---------------------------------------------
    def preempt(self, h_client, handle):
        """RM_FREE of `handle` is coming: tell the channels it frees to stop (called without the lock,
        so a grid that runs forever cannot keep the free waiting)."""
        client = self.clients.get(h_client)
        obj = client.objects.get(handle) if client is not None else None
        if obj is not None:
            for o in list(obj.descendants()) + [obj]:
                if o.kind == CHANNEL:
                    o.preempt = True

    def preempt_owner(self, owner):
        for client in [c for c in list(self.clients.values()) if c.owner is owner]:
            self.preempt(client.handle, client.handle)

    # -- RM_CONTROL ----------------------------------------------------------------------------
    def control(self, args):
        what = f"RM_CONTROL {NV.control_name(args.cmd)}"
        try:
            self._control(args.hClient, args.hObject, args.cmd, args.params, args.paramsSize)
            args.status = NV.NV_OK
        except RmFailure as f:
            args.status = self._status(f, what)

    def _control(self, h_client, h_object, cmd, pointer, size):
        client = self._client(h_client, "NV_ERR_INVALID_CLIENT")
        control = self.layouts.control(cmd)
        if (size != 0 and pointer == 0) or (size == 0 and pointer != 0):
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"params 0x{pointer:x} with paramsSize {size}")
        if control is not None and size != control.size:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"paramsSize {size}, but {control.struct} is {control.size} "
                            f"bytes in driver {self.layouts.tag}")
        obj = client.objects.get(h_object)
        if obj is None:
            raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"no object 0x{h_object:x} in client 0x{h_client:x}")
        handler = self.control_handlers.get(cmd)
        if control is None or handler is None or obj.kind != handler[0]:
            taken_by = f" (it goes to a {handler[0]})" if handler else ""
            raise RmFailure("NV_ERR_NOT_SUPPORTED", f"{obj.class_name} 0x{h_object:x} does not take "
                            f"{NV.control_name(cmd)}{taken_by}")
        data = bytearray(copy_from_user(pointer, size, f"{control.struct} at params"))
        params = self.layouts.from_buffer(control.struct, data)
        handler[1](self, obj, params)
        copy_to_user(pointer, data)


# -- Constructors of the emulated classes ----------------------------------------------------------

def _device(rm, client, parent, handle, h_class, params):
    instance = params.deviceId if params is not None else 0
    gpu = next((g for g in rm.gpus if g.device_instance == instance and g.attached), None)
    if gpu is None:
        raise RmFailure("NV_ERR_INVALID_CLASS", f"deviceId {instance} is not an attached GPU's device instance "
                        "(open /dev/nvidiaN first; GPU_GET_ID_INFO_V2 gives the instance)")
    return RmObject(handle, h_class, DEVICE, parent, gpu)


def _subdevice(rm, client, parent, handle, h_class, params):
    sub = params.subDeviceId if params is not None else 0
    if sub != 0:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"subDeviceId {sub}: the device has one subdevice, 0")
    return RmObject(handle, h_class, SUBDEVICE, parent, parent.gpu)


_CONSTRUCTORS = {NV.NV01_DEVICE_0: _device, NV.NV20_SUBDEVICE_0: _subdevice}


def constructors():
    """Every emulated class's constructor: devices here, memory and VA spaces in rm_memory, channels
    and engines in rm_fifo (imported on first use: they import this module)."""
    if len(_CONSTRUCTORS) == 2:
        from drivers.emu.nv.rm_fifo import CONSTRUCTORS as fifo
        from drivers.emu.nv.rm_memory import CONSTRUCTORS as memory
        _CONSTRUCTORS.update(memory)
        _CONSTRUCTORS.update(fifo)
    return _CONSTRUCTORS
