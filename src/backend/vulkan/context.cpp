// The Vulkan backend: loader (volk), instance, physical-device choice and facts, buffers,
// compute pipelines, timestamps. See context.hpp.
#include "backend/vulkan/context.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "measure/errors.hpp"

namespace joseki::vk {

const char* result_name(VkResult r) {
  switch (r) {
#define JOSEKI_VK_CASE(x) \
  case x: return #x;
    JOSEKI_VK_CASE(VK_SUCCESS)
    JOSEKI_VK_CASE(VK_NOT_READY)
    JOSEKI_VK_CASE(VK_TIMEOUT)
    JOSEKI_VK_CASE(VK_INCOMPLETE)
    JOSEKI_VK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    JOSEKI_VK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    JOSEKI_VK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    JOSEKI_VK_CASE(VK_ERROR_DEVICE_LOST)
    JOSEKI_VK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    JOSEKI_VK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    JOSEKI_VK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    JOSEKI_VK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    JOSEKI_VK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    JOSEKI_VK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    JOSEKI_VK_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    JOSEKI_VK_CASE(VK_ERROR_FRAGMENTED_POOL)
    JOSEKI_VK_CASE(VK_ERROR_UNKNOWN)
    JOSEKI_VK_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    JOSEKI_VK_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
#undef JOSEKI_VK_CASE
    default: return "VkResult (unnamed)";
  }
}

void check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return;
  throw RunError(fmt::format("Vulkan: {} failed: {} ({})", call, result_name(r), static_cast<int>(r)));
}

namespace {

std::string version_string(std::uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

std::string driver_string(std::uint32_t vendor, std::uint32_t v) {
  if (vendor == 0x10DE)  // NVIDIA: 10 bits major, 8 minor, 8 sub-minor, 6 patch
    return fmt::format("{}.{}.{}", v >> 22, (v >> 14) & 0xFF, (v >> 6) & 0xFF);
  return version_string(v);
}

const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

// volkInitialize once per process: dlopens libvulkan.so.1.
VkResult load_loader() {
  static std::once_flag once;
  static VkResult r = VK_ERROR_INITIALIZATION_FAILED;
  std::call_once(once, [] { r = volkInitialize(); });
  return r;
}

// The instance: Vulkan 1.3 when the loader has it (1.1 at least, for subgroups).
VkInstance make_instance() {
  if (load_loader() != VK_SUCCESS)
    throw GpuUnavailable("Vulkan: the loader libvulkan.so.1 could not be loaded (install libvulkan1, or a driver)");
  const std::uint32_t loader = volkGetInstanceVersion();
  if (loader < VK_API_VERSION_1_1)
    throw GpuUnavailable(fmt::format("Vulkan: the loader supports Vulkan {}; joseki needs 1.1 (subgroups)",
                                     version_string(loader)));
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "joseki";
  app.apiVersion = std::min<std::uint32_t>(loader, VK_API_VERSION_1_3);
  VkInstanceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ci.pApplicationInfo = &app;
  VkInstance inst = VK_NULL_HANDLE;
  const VkResult r = vkCreateInstance(&ci, nullptr, &inst);
  if (r != VK_SUCCESS)
    throw GpuUnavailable(fmt::format("Vulkan: vkCreateInstance failed: {} (no Vulkan driver installed?)", result_name(r)));
  volkLoadInstance(inst);
  return inst;
}

struct InstanceGuard {
  VkInstance inst;
  ~InstanceGuard() {
    if (inst) vkDestroyInstance(inst, nullptr);
  }
};

std::vector<std::string> subgroup_op_names(VkSubgroupFeatureFlags f) {
  std::vector<std::string> v;
  const std::pair<VkSubgroupFeatureFlagBits, const char*> names[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},           {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"}, {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},       {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},   {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"}};
  for (const auto& [bit, name] : names)
    if (f & bit) v.emplace_back(name);
  return v;
}

// Facts of one physical device; queue_family = the first family with compute (UINT32_MAX: none).
Facts query_facts(VkPhysicalDevice pd, int index) {
  Facts f;
  f.index = index;
  VkPhysicalDeviceProperties p0{};
  vkGetPhysicalDeviceProperties(pd, &p0);
  VkPhysicalDeviceSubgroupProperties sg{};
  sg.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceDriverProperties drv{};
  drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceProperties2 p2{};
  p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = &sg;
  if (p0.apiVersion >= VK_API_VERSION_1_2) sg.pNext = &drv;
  vkGetPhysicalDeviceProperties2(pd, &p2);
  const VkPhysicalDeviceProperties& p = p2.properties;
  f.name = p.deviceName;
  f.device_type = type_name(p.deviceType);
  f.api_version = version_string(p.apiVersion);
  f.driver_version = driver_string(p.vendorID, p.driverVersion);
  f.vendor_id = p.vendorID;
  f.device_id = p.deviceID;
  if (p0.apiVersion >= VK_API_VERSION_1_2) {
    f.driver_name = drv.driverName;
    f.driver_info = drv.driverInfo;
  }
  f.subgroup_size = sg.subgroupSize;
  f.subgroup_ops = subgroup_op_names(sg.supportedOperations);
  f.subgroup_in_compute = (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  f.subgroup_arithmetic = f.subgroup_in_compute && (sg.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  f.timestamp_period_ns = p.limits.timestampPeriod;
  f.max_shared_bytes = p.limits.maxComputeSharedMemorySize;
  f.max_storage_range = p.limits.maxStorageBufferRange;
  f.max_workgroup_invocations = p.limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) f.max_workgroup_count[i] = p.limits.maxComputeWorkGroupCount[i];
  VkPhysicalDeviceMemoryProperties mem{};
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h)
    if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      f.device_local_bytes = std::max<std::uint64_t>(f.device_local_bytes, mem.memoryHeaps[h].size);
  std::uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qf(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf.data());
  f.queue_family = UINT32_MAX;
  for (std::uint32_t q = 0; q < nq; ++q)
    if (qf[q].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      f.queue_family = q;
      f.timestamp_valid_bits = qf[q].timestampValidBits;
      break;
    }
  return f;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance inst) {
  std::uint32_t n = 0;
  JOSEKI_VK_CHECK(vkEnumeratePhysicalDevices(inst, &n, nullptr));
  std::vector<VkPhysicalDevice> v(n);
  if (n) JOSEKI_VK_CHECK(vkEnumeratePhysicalDevices(inst, &n, v.data()));
  return v;
}

}  // namespace

nlohmann::json to_json(const Facts& f) {
  return {{"index", f.index},
          {"name", f.name},
          {"device_type", f.device_type},
          {"api_version", f.api_version},
          {"driver_version", f.driver_version},
          {"driver_name", f.driver_name},
          {"driver_info", f.driver_info},
          {"vendor_id", f.vendor_id},
          {"device_id", f.device_id},
          {"subgroup_size", f.subgroup_size},
          {"subgroup_ops", f.subgroup_ops},
          {"subgroup_in_compute", f.subgroup_in_compute},
          {"subgroup_arithmetic", f.subgroup_arithmetic},
          {"timestamp_period_ns", f.timestamp_period_ns},
          {"timestamp_valid_bits", f.timestamp_valid_bits},
          {"max_shared_bytes", f.max_shared_bytes},
          {"max_storage_range", f.max_storage_range},
          {"max_workgroup_invocations", f.max_workgroup_invocations},
          {"max_workgroup_count", {f.max_workgroup_count[0], f.max_workgroup_count[1], f.max_workgroup_count[2]}},
          {"device_local_bytes", f.device_local_bytes}};
}

Availability availability() {
  Availability a;
  try {
    InstanceGuard g{make_instance()};
    a.loader = "Vulkan " + version_string(volkGetInstanceVersion()) + " loader";
    const auto pds = physical_devices(g.inst);
    for (std::size_t i = 0; i < pds.size(); ++i) {
      Facts f = query_facts(pds[i], static_cast<int>(i));
      if (f.queue_family != UINT32_MAX) a.devices.push_back(std::move(f));
    }
    if (a.devices.empty()) {
      a.reason = pds.empty() ? "Vulkan: the loader found no physical device (no Vulkan driver / ICD installed?)"
                             : "Vulkan: no physical device has a compute queue";
      return a;
    }
    a.ok = true;
  } catch (const std::exception& e) {
    a.reason = e.what();
  }
  return a;
}

// ---- Context ----

Context::Context(int device_index) {
  m_inst = make_instance();
  try {
    const auto pds = physical_devices(m_inst);
    if (pds.empty()) throw GpuUnavailable("Vulkan: the loader found no physical device (no Vulkan driver / ICD installed?)");
    if (device_index < 0 || device_index >= static_cast<int>(pds.size()))
      throw InputError(fmt::format("--device {}: out of range: {} Vulkan device(s) (0..{})", device_index, pds.size(),
                                   pds.size() - 1));
    m_phys = pds[static_cast<std::size_t>(device_index)];
    m_facts = query_facts(m_phys, device_index);
    if (m_facts.queue_family == UINT32_MAX)
      throw GpuUnavailable(fmt::format("Vulkan: device {} ({}) has no compute queue", device_index, m_facts.name));
    const float prio = 1.0f;
    VkDeviceQueueCreateInfo q{};
    q.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    q.queueFamilyIndex = m_facts.queue_family;
    q.queueCount = 1;
    q.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci{};
    dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &q;
    JOSEKI_VK_CHECK(vkCreateDevice(m_phys, &dci, nullptr, &m_dev));
    volkLoadDevice(m_dev);
    vkGetDeviceQueue(m_dev, m_facts.queue_family, 0, &m_queue);
    VkCommandPoolCreateInfo pci{};
    pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = m_facts.queue_family;
    JOSEKI_VK_CHECK(vkCreateCommandPool(m_dev, &pci, nullptr, &m_pool));
    VkCommandBufferAllocateInfo cai{};
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = m_pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    JOSEKI_VK_CHECK(vkAllocateCommandBuffers(m_dev, &cai, &m_cb));
    VkFenceCreateInfo fci{};
    fci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    JOSEKI_VK_CHECK(vkCreateFence(m_dev, &fci, nullptr, &m_fence));
    if (m_facts.timestamp_valid_bits > 0) {
      VkQueryPoolCreateInfo qci{};
      qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qci.queryCount = 2;
      JOSEKI_VK_CHECK(vkCreateQueryPool(m_dev, &qci, nullptr, &m_queries));
    }
  } catch (...) {
    destroy();
    throw;
  }
}

Context::~Context() { destroy(); }

void Context::destroy() {
  if (m_dev) {
    vkDeviceWaitIdle(m_dev);
    if (m_queries) vkDestroyQueryPool(m_dev, m_queries, nullptr);
    if (m_fence) vkDestroyFence(m_dev, m_fence, nullptr);
    if (m_pool) vkDestroyCommandPool(m_dev, m_pool, nullptr);
    vkDestroyDevice(m_dev, nullptr);
  }
  if (m_inst) vkDestroyInstance(m_inst, nullptr);
  m_queries = VK_NULL_HANDLE;
  m_fence = VK_NULL_HANDLE;
  m_pool = VK_NULL_HANDLE;
  m_dev = VK_NULL_HANDLE;
  m_inst = VK_NULL_HANDLE;
}

std::uint32_t Context::memory_type(std::uint32_t bits, VkMemoryPropertyFlags want) const {
  VkPhysicalDeviceMemoryProperties mem{};
  vkGetPhysicalDeviceMemoryProperties(m_phys, &mem);
  for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & want) == want) return i;
  return UINT32_MAX;
}

void Context::run(const Record& body) {
  JOSEKI_VK_CHECK(vkResetCommandBuffer(m_cb, 0));
  VkCommandBufferBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  JOSEKI_VK_CHECK(vkBeginCommandBuffer(m_cb, &bi));
  body(m_cb);
  JOSEKI_VK_CHECK(vkEndCommandBuffer(m_cb));
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &m_cb;
  JOSEKI_VK_CHECK(vkResetFences(m_dev, 1, &m_fence));
  JOSEKI_VK_CHECK(vkQueueSubmit(m_queue, 1, &si, m_fence));
  // 60 s: far beyond any rung here; a hang (a kernel waiting on another workgroup) becomes an error.
  const VkResult r = vkWaitForFences(m_dev, 1, &m_fence, VK_TRUE, 60'000'000'000ull);
  if (r == VK_TIMEOUT) throw RunError("Vulkan: vkWaitForFences: the submission did not finish in 60 s (hung kernel?)");
  JOSEKI_VK_CHECK(r);
}

double Context::time(const Record& body) {
  if (!m_queries)
    throw RunError(fmt::format("Vulkan: device {} ({}) has no timestamps on its compute queue (timestampValidBits 0)",
                               m_facts.index, m_facts.name));
  run([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, m_queries, 0, 2);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m_queries, 0);
    body(cb);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queries, 1);
  });
  std::uint64_t ts[2] = {0, 0};
  JOSEKI_VK_CHECK(vkGetQueryPoolResults(m_dev, m_queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const std::uint64_t mask = m_facts.timestamp_valid_bits >= 64 ? ~0ull : (1ull << m_facts.timestamp_valid_bits) - 1;
  const std::uint64_t ticks = (ts[1] - ts[0]) & mask;  // modular: a wrap between the two stays right
  return static_cast<double>(ticks) * m_facts.timestamp_period_ns * 1e-9;
}

void barrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb{};
  mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0,
                       nullptr);
}

// ---- Buffer ----

Buffer::Buffer(Context& ctx, std::size_t bytes, Memory where) : m_ctx(&ctx), m_bytes(bytes) {
  VkBufferCreateInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bi.size = std::max<std::size_t>(bytes, 16);
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  JOSEKI_VK_CHECK(vkCreateBuffer(ctx.device(), &bi, nullptr, &m_buf));
  try {
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(ctx.device(), m_buf, &req);
    const VkMemoryPropertyFlags want = where == Memory::Device
                                           ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                           : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const std::uint32_t type = ctx.memory_type(req.memoryTypeBits, want);
    if (type == UINT32_MAX)
      throw RunError(fmt::format("Vulkan: no memory type for a {} buffer of {} bytes",
                                 where == Memory::Device ? "device-local" : "host-visible", bytes));
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    JOSEKI_VK_CHECK(vkAllocateMemory(ctx.device(), &ai, nullptr, &m_mem));
    JOSEKI_VK_CHECK(vkBindBufferMemory(ctx.device(), m_buf, m_mem, 0));
    if (where == Memory::Host) JOSEKI_VK_CHECK(vkMapMemory(ctx.device(), m_mem, 0, VK_WHOLE_SIZE, 0, &m_map));
  } catch (...) {
    release();
    throw;
  }
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    m_ctx = o.m_ctx;
    m_buf = std::exchange(o.m_buf, VK_NULL_HANDLE);
    m_mem = std::exchange(o.m_mem, VK_NULL_HANDLE);
    m_map = std::exchange(o.m_map, nullptr);
    m_bytes = std::exchange(o.m_bytes, 0);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (!m_ctx) return;
  if (m_map) vkUnmapMemory(m_ctx->device(), m_mem);
  if (m_buf) vkDestroyBuffer(m_ctx->device(), m_buf, nullptr);
  if (m_mem) vkFreeMemory(m_ctx->device(), m_mem, nullptr);
  m_map = nullptr;
  m_buf = VK_NULL_HANDLE;
  m_mem = VK_NULL_HANDLE;
}

namespace {
constexpr std::size_t STAGING_CHUNK = std::size_t{64} << 20;
}

void Buffer::upload(const void* src, std::size_t bytes, std::size_t dst_offset) {
  if (dst_offset + bytes > m_bytes) throw RunError("Vulkan: upload beyond the end of the buffer");
  if (m_map) {
    std::memcpy(static_cast<char*>(m_map) + dst_offset, src, bytes);
    return;
  }
  Buffer staging(*m_ctx, std::min(bytes, STAGING_CHUNK), Memory::Host);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t len = std::min(STAGING_CHUNK, bytes - done);
    std::memcpy(staging.m_map, static_cast<const char*>(src) + done, len);
    m_ctx->run([&](VkCommandBuffer cb) {
      VkBufferCopy c{0, dst_offset + done, len};
      vkCmdCopyBuffer(cb, staging.m_buf, m_buf, 1, &c);
    });
    done += len;
  }
}

void Buffer::download(void* dst, std::size_t bytes, std::size_t src_offset) {
  if (src_offset + bytes > m_bytes) throw RunError("Vulkan: download beyond the end of the buffer");
  if (m_map) {
    std::memcpy(dst, static_cast<const char*>(m_map) + src_offset, bytes);
    return;
  }
  Buffer staging(*m_ctx, std::min(bytes, STAGING_CHUNK), Memory::Host);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t len = std::min(STAGING_CHUNK, bytes - done);
    m_ctx->run([&](VkCommandBuffer cb) {
      barrier(cb);
      VkBufferCopy c{src_offset + done, 0, len};
      vkCmdCopyBuffer(cb, m_buf, staging.m_buf, 1, &c);
    });
    std::memcpy(static_cast<char*>(dst) + done, staging.m_map, len);
    done += len;
  }
}

void Buffer::fill(std::uint32_t word) {
  m_ctx->run([&](VkCommandBuffer cb) {
    barrier(cb);
    vkCmdFillBuffer(cb, m_buf, 0, VK_WHOLE_SIZE, word);
  });
}

// ---- Pipeline ----

Pipeline::Pipeline(Context& ctx, std::span<const std::uint32_t> spirv, const std::vector<std::uint32_t>& spec,
                   int buffers, const std::string& name)
    : m_ctx(ctx), m_name(name), m_buffers(buffers) {
  const VkDevice d = ctx.device();
  try {
    VkShaderModuleCreateInfo sm{};
    sm.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    sm.codeSize = spirv.size_bytes();
    sm.pCode = spirv.data();
    JOSEKI_VK_CHECK(vkCreateShaderModule(d, &sm, nullptr, &m_module));
    std::vector<VkDescriptorSetLayoutBinding> b(static_cast<std::size_t>(buffers));
    for (int i = 0; i < buffers; ++i) {
      b[i].binding = static_cast<std::uint32_t>(i);
      b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      b[i].descriptorCount = 1;
      b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dl{};
    dl.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    dl.bindingCount = static_cast<std::uint32_t>(buffers);
    dl.pBindings = b.data();
    JOSEKI_VK_CHECK(vkCreateDescriptorSetLayout(d, &dl, nullptr, &m_dsl));
    VkPushConstantRange pr{VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
    VkPipelineLayoutCreateInfo pl{};
    pl.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &m_dsl;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &pr;
    JOSEKI_VK_CHECK(vkCreatePipelineLayout(d, &pl, nullptr, &m_layout));
    std::vector<VkSpecializationMapEntry> me(spec.size());
    for (std::size_t i = 0; i < spec.size(); ++i)
      me[i] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(4 * i), 4};
    VkSpecializationInfo si{};
    si.mapEntryCount = static_cast<std::uint32_t>(me.size());
    si.pMapEntries = me.data();
    si.dataSize = 4 * spec.size();
    si.pData = spec.data();
    VkComputePipelineCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = m_module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = spec.empty() ? nullptr : &si;
    ci.layout = m_layout;
    JOSEKI_VK_CHECK(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &ci, nullptr, &m_pipe));
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<std::uint32_t>(buffers)};
    VkDescriptorPoolCreateInfo dp{};
    dp.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    dp.maxSets = 1;
    dp.poolSizeCount = 1;
    dp.pPoolSizes = &ps;
    JOSEKI_VK_CHECK(vkCreateDescriptorPool(d, &dp, nullptr, &m_pool));
    VkDescriptorSetAllocateInfo da{};
    da.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    da.descriptorPool = m_pool;
    da.descriptorSetCount = 1;
    da.pSetLayouts = &m_dsl;
    JOSEKI_VK_CHECK(vkAllocateDescriptorSets(d, &da, &m_set));
  } catch (...) {
    destroy();
    throw;
  }
}

Pipeline::~Pipeline() { destroy(); }

void Pipeline::destroy() {
  const VkDevice d = m_ctx.device();
  if (m_pool) vkDestroyDescriptorPool(d, m_pool, nullptr);
  if (m_pipe) vkDestroyPipeline(d, m_pipe, nullptr);
  if (m_layout) vkDestroyPipelineLayout(d, m_layout, nullptr);
  if (m_dsl) vkDestroyDescriptorSetLayout(d, m_dsl, nullptr);
  if (m_module) vkDestroyShaderModule(d, m_module, nullptr);
  m_pool = VK_NULL_HANDLE;
  m_pipe = VK_NULL_HANDLE;
  m_layout = VK_NULL_HANDLE;
  m_dsl = VK_NULL_HANDLE;
  m_module = VK_NULL_HANDLE;
}

void Pipeline::dispatch(VkCommandBuffer cb, const std::vector<const Buffer*>& bufs, std::span<const std::uint32_t> push,
                        std::uint32_t gx, std::uint32_t gy) {
  if (static_cast<int>(bufs.size()) != m_buffers)
    throw RunError(fmt::format("Vulkan: pipeline {} takes {} buffers, {} given", m_name, m_buffers, bufs.size()));
  if (push.size() > 8) throw RunError(fmt::format("Vulkan: pipeline {}: more than 32 bytes of push constants", m_name));
  const std::uint32_t* maxc = m_ctx.facts().max_workgroup_count;
  if (gx == 0 || gy == 0 || gx > maxc[0] || gy > maxc[1])
    throw RunError(fmt::format("Vulkan: pipeline {}: {} x {} workgroups (device limit {} x {})", m_name, gx, gy, maxc[0],
                               maxc[1]));
  std::vector<VkBuffer> want;
  for (const Buffer* b : bufs) want.push_back(b->handle());
  if (want != m_bound) {
    std::vector<VkDescriptorBufferInfo> info(bufs.size());
    std::vector<VkWriteDescriptorSet> w(bufs.size());
    for (std::size_t i = 0; i < bufs.size(); ++i) {
      info[i] = {bufs[i]->handle(), 0, VK_WHOLE_SIZE};
      w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w[i].dstSet = m_set;
      w[i].dstBinding = static_cast<std::uint32_t>(i);
      w[i].descriptorCount = 1;
      w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w[i].pBufferInfo = &info[i];
    }
    vkUpdateDescriptorSets(m_ctx.device(), static_cast<std::uint32_t>(w.size()), w.data(), 0, nullptr);
    m_bound = want;
  }
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m_pipe);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m_layout, 0, 1, &m_set, 0, nullptr);
  if (!push.empty())
    vkCmdPushConstants(cb, m_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<std::uint32_t>(push.size_bytes()),
                       push.data());
  vkCmdDispatch(cb, gx, gy, 1);
}

}  // namespace joseki::vk
